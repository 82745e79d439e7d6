import { WEBHOOK_EVENT_NAMES, isWebhookEvent, type WebhookEvent } from './events.js';
import { affordError } from '../domain/errors.js';

/** docs/interface.md: a signing secret must be longer than 32 characters. */
export const MIN_SECRET_LENGTH = 33;

/**
 * Headers the service sets itself, and those of the connection itself that
 * a request cannot carry (its HTTP client refuses them, so every delivery
 * would fail): a subscription cannot set them.
 */
const RESERVED_HEADERS = new Set([
  'content-type', 'content-length', 'host', 'connection', 'transfer-encoding', 'user-agent',
  'upgrade', 'keep-alive', 'expect', 'proxy-connection', 'te', 'trailer',
  // The body goes as it is: a receiver that honoured a coding named here could not read it.
  'content-encoding',
  'x-signature', 'x-signing-id', 'x-token-signature', 'x-webhook-event', 'x-webhook-delivery-id', 'x-webhook-attempt',
]);

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// What a header's value can carry: visible Latin-1 characters, spaces and tabs, no space or tab at either end.
const HEADER_VALUE = /^(?:[\x21-\x7e\xa0-\xff](?:[\t\x20-\x7e\xa0-\xff]*[\x21-\x7e\xa0-\xff])?)?$/;
/** Longest header value and URL a subscription may give: receivers and proxies refuse longer ones. */
export const MAX_HEADER_VALUE = 4096;
export const MAX_URL_LENGTH = 2048;

export interface SubscriptionInput {
  clientId: string;
  url: string;
  events: readonly string[];
  /** As given, in order: a name given twice (in any case) is refused, not merged or dropped. */
  headers?: Readonly<Record<string, string>> | readonly (readonly [string, string])[];
  secret?: string;
}

/** The longest client id: ids are at most 200 characters wherever they are stored. */
const MAX_CLIENT_ID = 200;
/** A host name's rules (RFC 1035): labels of 1 to 63 characters, 253 in all. */
const validHostName = (host: string): boolean =>
  host.startsWith('[') || (host.length <= 253 && host.replace(/\.$/, '').split('.').every((label) => label.length >= 1 && label.length <= 63));

export interface ValidSubscription {
  clientId: string;
  url: string;
  events: WebhookEvent[];
  headers: Record<string, string>;
  secret: string | null;
}

/** Checks a new subscription; throws SUBSCRIPTION_INVALID with a message fit for a console user. Never echoes the secret. */
export function validateSubscription(input: SubscriptionInput): ValidSubscription {
  const clientId = input.clientId.trim();
  if (clientId === '') throw affordError('SUBSCRIPTION_INVALID', 'a client id is required');
  if (clientId.length > MAX_CLIENT_ID) throw affordError('SUBSCRIPTION_INVALID', `a client id is at most ${MAX_CLIENT_ID} characters`);

  if (input.url.length > MAX_URL_LENGTH) throw affordError('SUBSCRIPTION_INVALID', `the webhook URL must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    // Not echoed: a URL may carry a credential.
    throw affordError('SUBSCRIPTION_INVALID', 'the webhook URL is not a URL (write it in full, https://host/path)');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw affordError('SUBSCRIPTION_INVALID', 'the webhook URL must use https (or http)');
  if (url.username || url.password) throw affordError('SUBSCRIPTION_INVALID', 'the webhook URL must not carry credentials; use --header instead');
  // Accepted, such a URL could never be delivered to, and every delivery was retried for half an hour.
  if (url.port === '0') throw affordError('SUBSCRIPTION_INVALID', 'the webhook URL\'s port must be from 1 to 65535');
  if (!validHostName(url.hostname)) throw affordError('SUBSCRIPTION_INVALID', 'the webhook URL\'s host is not a valid name (labels of 1 to 63 characters, 253 in all)');
  // As stored: percent-encoding can make a URL several times longer than it was typed.
  if (url.toString().length > MAX_URL_LENGTH) throw affordError('SUBSCRIPTION_INVALID', `the webhook URL must be at most ${MAX_URL_LENGTH} characters, percent-encoded`);

  const events = [...new Set(input.events.map((e) => e.trim()).filter(Boolean))];
  if (events.length === 0) throw affordError('SUBSCRIPTION_INVALID', `choose at least one event: ${WEBHOOK_EVENT_NAMES.join(', ')}`);
  const unknown = events.filter((e) => !isWebhookEvent(e));
  if (unknown.length > 0) {
    throw affordError('SUBSCRIPTION_INVALID', `unknown event${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}; known events: ${WEBHOOK_EVENT_NAMES.join(', ')}`);
  }

  const headers: Record<string, string> = {};
  const given = Array.isArray(input.headers) ? input.headers : Object.entries(input.headers ?? {});
  const seen = new Set<string>();
  for (const [name, value] of given as readonly (readonly [string, string])[]) {
    // Given twice, one was dropped (the same case) or both sent joined by a comma (another case).
    if (seen.has(name.toLowerCase())) throw affordError('SUBSCRIPTION_INVALID', `header ${name} is given twice: give it once (several values go in one, comma-separated)`);
    seen.add(name.toLowerCase());
    if (!HEADER_NAME.test(name)) throw affordError('SUBSCRIPTION_INVALID', `'${name}' is not a valid header name`);
    if (RESERVED_HEADERS.has(name.toLowerCase())) throw affordError('SUBSCRIPTION_INVALID', `header ${name} is set by the service and cannot be configured`);
    if (/[\r\n\0]/.test(value)) throw affordError('SUBSCRIPTION_INVALID', `the value of header ${name} must be on one line`);
    if (value.length > MAX_HEADER_VALUE) throw affordError('SUBSCRIPTION_INVALID', `the value of header ${name} must be at most ${MAX_HEADER_VALUE} characters`);
    if (!HEADER_VALUE.test(value)) {
      throw affordError('SUBSCRIPTION_INVALID', `the value of header ${name} must be visible Latin-1 characters, with spaces or tabs only between them`);
    }
    headers[name] = value;
  }

  const secret = input.secret ?? null;
  if (secret !== null && secret.length < MIN_SECRET_LENGTH) {
    throw affordError('SUBSCRIPTION_INVALID', 
      `the signing secret must be longer than 32 characters (it has ${secret.length}); generate one with: openssl rand -hex 32`,
    );
  }
  return { clientId, url: url.toString(), events: events.filter(isWebhookEvent), headers, secret };
}

/** `K=V` (from `--header`) -> [K, V]; the value may itself contain `=`. */
export function parseHeaderArgument(arg: string): [string, string] {
  const eq = arg.indexOf('=');
  // Not echoed: the value may be a credential.
  if (eq <= 0) throw affordError('SUBSCRIPTION_INVALID', `--header must look like Name=value (got ${arg.length} characters with no '=' after a name)`);
  return [arg.slice(0, eq).trim(), arg.slice(eq + 1)];
}

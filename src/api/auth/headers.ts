import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { MAX_CREDENTIAL_HEADER_LENGTH, MAX_ID_LENGTH } from '../limits.js';

/** Ids are at most 200 characters wherever they are stored; a longer one cannot name anything. */
const MAX_HEADER_LENGTH: Record<string, number> = {
  'x-client-id': MAX_ID_LENGTH,
  'x-customer-id': MAX_ID_LENGTH,
};

/**
 * A header's value as the text its bytes spell in UTF-8: Node reads header
 * bytes as Latin-1, one character a byte, so an id such as `cust-é` (sent
 * as its UTF-8 bytes) would arrive as `cust-Ã©` and name nobody. Bytes that
 * are not UTF-8 are left as Node read them.
 */
export function headerText(value: string): string {
  return utf8Header(value) ?? value;
}

/** A header's value as the UTF-8 text its bytes spell; undefined when they are not UTF-8. */
export function utf8Header(value: string): string | undefined {
  if (!/[\u0080-\u00ff]/.test(value)) return value;
  const bytes = Buffer.from(value, 'latin1');
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/**
 * One header's value (headerText); Node lower-cases names, so X-Client-ID and
 * X-Client-Id are the same. A repeated header, or one longer than its bound,
 * counts as absent.
 */
export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const key = name.toLowerCase();
  const raw = headers[key];
  if (typeof raw !== 'string' || raw === '') return undefined;
  const value = headerText(raw);
  return value.length <= (MAX_HEADER_LENGTH[key] ?? MAX_CREDENTIAL_HEADER_LENGTH) ? value : undefined;
}

/**
 * The request's headers, with Authorization left out when it was given more
 * than once: Node keeps the first and drops the rest, so which credentials
 * counted was Node's choice, not the client's (a valid one then junk was
 * let in, junk then a valid one refused). Given twice, it counts as absent,
 * as every other repeated header here does.
 */
export function credentialHeaders(request: IncomingMessage): IncomingHttpHeaders {
  return (request.headersDistinct['authorization']?.length ?? 0) > 1 ? { ...request.headers, authorization: undefined } : request.headers;
}

export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  // The scheme's name is case-insensitive (RFC 9110, 11.1).
  const match = /^Bearer ([A-Za-z0-9_\-.]+)$/i.exec(header(headers, 'authorization') ?? '');
  return match?.[1];
}

export interface BasicCredentials {
  username: string;
  password: string;
}

export function basicCredentials(headers: IncomingHttpHeaders): BasicCredentials | undefined {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/i.exec(header(headers, 'authorization') ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon <= 0) return undefined;
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

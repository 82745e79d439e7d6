import { pino, type Logger } from 'pino';
import { REDACTED } from './domain/redact.js';

export type { Logger };

const CREDENTIAL_FIELDS = ['client_secret', 'customer_secret', 'access_token', 'refresh_token', 'id_token', 'token', 'secret', 'password', 'api_key'];

/** Paths never written to a log line, whatever their value: at the top level and one level down. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-customer-secret"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-customer-secret"]',
  'headers.cookie',
  ...CREDENTIAL_FIELDS,
  ...CREDENTIAL_FIELDS.map((f) => `*.${f}`),
];

/** A query parameter whose value is a credential, whatever the route: its value never reaches a log line. */
const CREDENTIAL_PARAM = /token|secret|password|passwd|pwd|key|auth|credential|signature|session|cookie|jwt|bearer|assertion/i;
// A JSON Web Token wherever it stands in the URL (a path segment, a parameter's name or unnamed value): three
// base64url parts, the first a JSON object's ('eyJ').
const JWT = /eyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

function paramName(pair: string): string {
  const name = pair.split('=', 1)[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The URL as logged: the path and the query, with the value of every credential-looking parameter, and every token-shaped text, replaced. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url.replace(JWT, REDACTED);
  const pairs = url.slice(q + 1).split('&').map((pair) => (CREDENTIAL_PARAM.test(paramName(pair)) ? `${pair.split('=', 1)[0]}=${REDACTED}` : pair));
  return `${url.slice(0, q)}?${pairs.join('&')}`.replace(JWT, REDACTED);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** What a request's log lines say about it: never its headers or body, and its URL redacted. */
export function requestSerializer(req: LoggedRequest): Record<string, unknown> {
  return { method: req.method, url: req.url === undefined ? undefined : redactUrl(req.url), remoteAddress: req.ip, remotePort: req.socket?.remotePort };
}

export function createLogger(level: string, destination: NodeJS.WritableStream = process.stderr): Logger {
  return pino(
    { level, redact: { paths: REDACTED_PATHS, censor: REDACTED }, serializers: { req: requestSerializer }, base: { service: 'afford' } },
    destination as pino.DestinationStream,
  );
}

import { pino, type Logger } from 'pino';

export type { Logger };

/** Paths never written to a log line, whatever their value. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["x-customer-secret"]',
  'headers.authorization',
  'headers["x-customer-secret"]',
  'client_secret',
  'customer_secret',
  'access_token',
  'refresh_token',
  'secret',
  'password',
];

export function createLogger(level: string, destination: NodeJS.WritableStream = process.stderr): Logger {
  return pino({ level, redact: { paths: REDACTED_PATHS, censor: '[redacted]' }, base: { service: 'afford' } }, destination as pino.DestinationStream);
}

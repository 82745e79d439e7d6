import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets are stored as `sha256$salt$hex`. They are long random strings
 * issued by machines, so a salted SHA-256 is enough and keeps each request's
 * check cheap; the comparison is constant-time.
 */
export function hashSecret(secret: string, salt: string = randomBytes(12).toString('hex')): string {
  const digest = createHash('sha256').update(`${salt}:${secret}`).digest('hex');
  return `sha256$${salt}$${digest}`;
}

export function verifySecret(secret: string, stored: string | null | undefined): boolean {
  if (!stored) return false;
  const [scheme, salt, digest] = stored.split('$');
  if (scheme !== 'sha256' || !salt || !digest) return false;
  const expected = Buffer.from(digest, 'hex');
  const actual = Buffer.from(hashSecret(secret, salt).split('$')[2] ?? '', 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

export function newSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Why an event was not written: the customer_secret it brings is not the customer's (a dead letter's reason, and a task's). */
export const SECRET_MISMATCH_REASON = "customer_secret: does not match the customer's secret";
/** Why an API ingestion event was not written: it leaves out the secret of a customer that is not hosted. */
export const SECRET_REQUIRED_REASON = 'customer_secret: is required, as the customer is not hosted';

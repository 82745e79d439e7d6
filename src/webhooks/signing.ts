import { createHmac } from 'node:crypto';
import { CompactSign } from 'jose';
import { SIGNING_ALGORITHM, type SigningKey } from './signing-keys.js';

/** X-Token-Signature: lower-case hex HMAC-SHA256 of the exact body bytes sent, keyed with the subscription's secret. */
export function tokenSignature(secret: string, body: Uint8Array): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * X-Signature (deprecated by the reference API, still sent): a compact JWS whose
 * payload is the body itself, signed ES256; the header's kid is the
 * X-Signing-ID. A receiver verifies it against the JWKS and compares the
 * verified payload with the body it received, byte for byte. The bodies are
 * JSON objects, so the payload is also a valid JWT claims set.
 */
export async function bodySignature(key: SigningKey, body: Uint8Array): Promise<string> {
  return new CompactSign(body).setProtectedHeader({ alg: SIGNING_ALGORITHM, kid: key.keyId, typ: 'JWT' }).sign(key.privateKey);
}

export interface SignedHeaders {
  'X-Signature': string;
  'X-Signing-ID': string;
  'X-Token-Signature'?: string;
}

export async function signatureHeaders(key: SigningKey, body: Uint8Array, secret: string | null): Promise<SignedHeaders> {
  const headers: SignedHeaders = { 'X-Signature': await bodySignature(key, body), 'X-Signing-ID': key.keyId };
  if (secret !== null) headers['X-Token-Signature'] = tokenSignature(secret, body);
  return headers;
}

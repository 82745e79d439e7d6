import { createHmac, timingSafeEqual } from 'node:crypto';
import { compactVerify, createLocalJWKSet, jwtVerify, type JSONWebKeySet } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateSubscription } from '../../src/webhooks/subscription-input.js';
import { startReceiver, type ReceivedRequest, type Receiver } from '../helpers/receiver.js';
import { SIGNING_SECRET, ServiceUnderTest, paymentEvent, tempDbPath } from '../helpers/webhooks.js';

const CLIENT = 'client-sig';

/** What a receiver does with X-Token-Signature: HMAC the raw bytes it got, compare in constant time. */
function tokenSignatureValid(secret: string, rawBody: Buffer, header: string | undefined): boolean {
  if (!header) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(rawBody).digest('hex'));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

/** What a receiver does with X-Signature: verify the JWT against the JWKS, then check that it signs exactly the body received. */
async function jwtSignatureValid(jwks: JSONWebKeySet, rawBody: Buffer, token: string | undefined, signingId: string | undefined): Promise<boolean> {
  if (!token) return false;
  try {
    const { payload, protectedHeader } = await compactVerify(token, createLocalJWKSet(jwks), { algorithms: ['ES256'] });
    return protectedHeader.kid === signingId && Buffer.from(payload).equals(rawBody);
  } catch {
    return false;
  }
}

const header = (r: ReceivedRequest, name: string): string | undefined => {
  const v = r.headers[name];
  return typeof v === 'string' ? v : undefined;
};

describe('webhook signatures', () => {
  let db: ReturnType<typeof tempDbPath>;
  let service: ServiceUnderTest;
  let signed: Receiver;
  let unsigned: Receiver;
  let jwks: JSONWebKeySet;

  beforeAll(async () => {
    db = tempDbPath();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    signed = await startReceiver(() => 200);
    unsigned = await startReceiver(() => 200);
    await service.subscribe({
      clientId: CLIENT,
      url: signed.url,
      events: ['payment.single.status_updated'],
      secret: SIGNING_SECRET,
      headers: { Authorization: 'Bearer receiver-token', 'X-Custom': 'a=b; c' },
    });
    await service.subscribe({ clientId: CLIENT, url: unsigned.url, events: ['payment.single.status_updated'] });
    await service.ingest([paymentEvent(CLIENT, 'cust-sig', 'single', 'pay-sig')]);
    await signed.waitFor(1);
    await unsigned.waitFor(1);
    // The JWKS, fetched from the listening service as a receiver would.
    const res = await fetch(`${service.base}/.well-known/jwks.json`);
    expect(res.status).toBe(200);
    jwks = (await res.json()) as JSONWebKeySet;
  });
  afterAll(async () => {
    await signed.close();
    await unsigned.close();
    await service.close();
    db.cleanup();
  });

  it('publishes the ES256 public key, and no private part, at /.well-known/jwks.json', () => {
    expect(jwks.keys).toHaveLength(1);
    const [key] = jwks.keys;
    expect(key).toMatchObject({ kty: 'EC', crv: 'P-256', alg: 'ES256', use: 'sig' });
    expect(key).not.toHaveProperty('d');
  });

  it('signs the raw body with X-Token-Signature (HMAC-SHA256 with the secret) and X-Signature (JWT, key X-Signing-ID)', async () => {
    const [request] = signed.requests;
    if (!request) throw new Error('no request');
    expect(header(request, 'x-token-signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenSignatureValid(SIGNING_SECRET, request.body, header(request, 'x-token-signature'))).toBe(true);
    expect(header(request, 'x-signing-id')).toBe(jwks.keys[0]?.kid);
    expect(await jwtSignatureValid(jwks, request.body, header(request, 'x-signature'), header(request, 'x-signing-id'))).toBe(true);
    // The JWT's claims are the body itself, so a JWT library reads it too.
    const { payload } = await jwtVerify(header(request, 'x-signature') ?? '', createLocalJWKSet(jwks));
    expect(payload).toEqual(JSON.parse(request.body.toString('utf8')));
    expect(request.headers['content-type']).toBe('application/json');
  });

  it('fails both checks when one byte of the body changes', async () => {
    const [request] = signed.requests;
    if (!request) throw new Error('no request');
    const tampered = Buffer.from(request.body);
    const at = tampered.indexOf('pay-sig');
    tampered[at] = 'q'.charCodeAt(0);
    expect(tampered.equals(request.body)).toBe(false);
    expect(tokenSignatureValid(SIGNING_SECRET, tampered, header(request, 'x-token-signature'))).toBe(false);
    expect(await jwtSignatureValid(jwks, tampered, header(request, 'x-signature'), header(request, 'x-signing-id'))).toBe(false);
    // A wrong secret fails too.
    expect(tokenSignatureValid(`${SIGNING_SECRET}x`, request.body, header(request, 'x-token-signature'))).toBe(false);
  });

  it('sends the configured headers as given', () => {
    const [request] = signed.requests;
    expect(request?.headers['authorization']).toBe('Bearer receiver-token');
    expect(request?.headers['x-custom']).toBe('a=b; c');
  });

  it('sends no X-Token-Signature without a secret, but always X-Signature and X-Signing-ID', async () => {
    const [request] = unsigned.requests;
    if (!request) throw new Error('no request');
    expect(request.headers).not.toHaveProperty('x-token-signature');
    expect(await jwtSignatureValid(jwks, request.body, header(request, 'x-signature'), header(request, 'x-signing-id'))).toBe(true);
  });

  it('keeps the signing key across a restart', async () => {
    await service.app?.close();
    await service.runtime.stop();
    await service.store.close();
    service = await ServiceUnderTest.open(db.dbPath, { api: true });
    const again = (await (await fetch(`${service.base}/.well-known/jwks.json`)).json()) as JSONWebKeySet;
    expect(again.keys.map((k) => k.kid)).toEqual(jwks.keys.map((k) => k.kid));
  });

  it('refuses a signing secret of 32 characters or fewer, with a clear message', () => {
    const base = { clientId: CLIENT, url: 'https://example.test/hook', events: ['customers.deleted'] };
    expect(() => validateSubscription({ ...base, secret: 'x'.repeat(32) })).toThrow(expect.objectContaining({ code: 'SUBSCRIPTION_INVALID' }));
    expect(() => validateSubscription({ ...base, secret: 'x'.repeat(32) })).toThrow('the signing secret must be longer than 32 characters (it has 32)');
    expect(validateSubscription({ ...base, secret: 'x'.repeat(33) }).secret).toHaveLength(33);
    expect(() => validateSubscription({ ...base, events: ['open_banking.connection.completed'] })).toThrow(/unknown event/);
    expect(() => validateSubscription({ ...base, headers: { 'X-Signature': 'forged' } })).toThrow(/set by the service/);
  });
});

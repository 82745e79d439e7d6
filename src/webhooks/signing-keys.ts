import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { z } from 'zod';
import { queryFile } from '../db/script.js';
import type { Store } from '../db/store.js';
import { dbTime } from '../domain/timestamps.js';
import { affordError } from '../domain/errors.js';
import type { Columns } from '../db/rows.js';

export const SIGNING_ALGORITHM = 'ES256';

interface KeyRow {
  key_id: string;
  private_jwk: string;
  public_jwk: string;
}

const KEY_COLUMNS: Columns<KeyRow> = { key_id: 'text', private_jwk: 'text', public_jwk: 'text' };

export interface SigningKey {
  keyId: string;
  privateKey: CryptoKey;
}

/** A published key: the public JWK with the fields that receivers select it by. */
export type PublishedJwk = JWK & { kty: string; kid: string; alg: string; use: string };

export interface JsonWebKeySet {
  keys: PublishedJwk[];
}

const ecPublicJwk = z.object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string(), y: z.string() }).passthrough();
const ecPrivateJwk = ecPublicJwk.extend({ d: z.string() });

/**
 * The ES256 key pair behind X-Signature. It is generated on first use and
 * kept in the DB, so a restart keeps the key id that receivers have cached.
 * Every stored public key is published, which leaves room for a rotation:
 * insert a newer key and the old one stays verifiable.
 */
export class WebhookSigningKeys {
  private current: Promise<SigningKey> | undefined;

  constructor(private readonly store: Store) {}

  /** The key that signs: the newest one, created when there is none. */
  signingKey(): Promise<SigningKey> {
    this.current ??= this.loadOrCreate().catch((err: unknown) => {
      this.current = undefined;
      throw err;
    });
    return this.current;
  }

  /** The public keys as a JWKS document, for GET /.well-known/jwks.json. */
  async publicJwks(): Promise<JsonWebKeySet> {
    await this.signingKey();
    const rows = await this.store.read((conn) => queryFile<KeyRow>(conn, 'queries/webhooks/signing-keys', {}, KEY_COLUMNS));
    return {
      keys: rows.map((r) => ({ ...ecPublicJwk.parse(JSON.parse(r.public_jwk)), kid: r.key_id, alg: SIGNING_ALGORITHM, use: 'sig' })),
    };
  }

  private async loadOrCreate(): Promise<SigningKey> {
    const fresh = await generateKeyPair(SIGNING_ALGORITHM, { extractable: true });
    const publicJwk = await exportJWK(fresh.publicKey);
    const keyId = await calculateJwkThumbprint(publicJwk);
    const rows = await this.store.write(async (conn) => {
      await queryFile(conn, 'queries/webhooks/ensure-signing-key', {
        key_id: keyId,
        private_jwk: JSON.stringify(await exportJWK(fresh.privateKey)),
        public_jwk: JSON.stringify(publicJwk),
        now: dbTime(),
      });
      return queryFile<KeyRow>(conn, 'queries/webhooks/signing-keys', {}, KEY_COLUMNS);
    });
    const newest = rows[0];
    if (!newest) throw affordError('SIGNING_KEY_MISSING', 'webhook');
    const privateKey = await importJWK(ecPrivateJwk.parse(JSON.parse(newest.private_jwk)), SIGNING_ALGORITHM);
    if (privateKey instanceof Uint8Array) throw affordError('WEBHOOK_KEY_NOT_EC');
    return { keyId: newest.key_id, privateKey };
  }
}

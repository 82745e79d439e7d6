import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

export const ACCESS_TOKEN_SECONDS = 3600;
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600;

export type TokenUse = 'access' | 'refresh';

export interface IssuedTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: typeof ACCESS_TOKEN_SECONDS;
  refresh_token: string;
}

const ISSUER = 'afford';
const ALGORITHM = 'HS256';

/** What a valid token says: its client, and the generation of that client's secret it was issued under. */
export interface VerifiedToken {
  clientId: string;
  generation: number;
  /** Which secret it was issued under (secretFingerprint); absent from tokens issued before tokens carried it. */
  secret?: string;
}

/**
 * A short, one-way mark of a client's secret (of its stored hash): a token
 * carries it, so that a token issued under a secret since replaced is
 * refused even when two rotations, on two shards at once, gave the new
 * secret the same generation as the old.
 */
export function secretFingerprint(secretHash: string): string {
  return createHash('sha256').update(secretHash).digest('base64url').slice(0, 16);
}

/**
 * Access and refresh tokens are HS256 JWTs: `sub` is the client_id, `use`
 * tells the two kinds apart, `gen` is the client's token generation (moved on
 * by each secret rotation), `sf` marks the secret itself, `exp` ends them. Nothing else is in them, so a
 * leaked token names no customer.
 */
/** Tokens already checked, kept at most: a lender's system reuses one token for an hour of calls. */
const VERIFIED_TOKENS = 10_000;

export class TokenService {
  private readonly key: Uint8Array;
  /** A signature checked once stays good; only the expiry is checked again, at each use. */
  private readonly verified = new LRUCache<string, { token: VerifiedToken; exp: number }>({ max: VERIFIED_TOKENS });

  constructor(secret: string) {
    this.key = new TextEncoder().encode(secret);
  }

  /** Tokens of the client's secret `generation`; `secretHash`, when given, marks which secret (secretFingerprint). */
  async issue(clientId: string, generation: number, secretHash?: string): Promise<IssuedTokens> {
    const secret = secretHash === undefined ? undefined : secretFingerprint(secretHash);
    return {
      access_token: await this.sign(clientId, generation, secret, 'access', ACCESS_TOKEN_SECONDS),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: await this.sign(clientId, generation, secret, 'refresh', REFRESH_TOKEN_SECONDS),
    };
  }

  /**
   * The claims of a valid, unexpired token of that use; undefined for
   * anything else. Whether its generation is still the client's is for the
   * caller to check against the store.
   */
  async verify(token: string, use: TokenUse): Promise<VerifiedToken | undefined> {
    const key = `${use} ${token}`;
    const kept = this.verified.get(key);
    // jose's rule: a token is expired from its exp on.
    if (kept) return Date.now() / 1000 < kept.exp ? kept.token : undefined;
    try {
      // afford's tokens always expire: one without exp (made with the key some other way) never would.
      const { payload } = await jwtVerify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER, requiredClaims: ['exp', 'sub'] });
      if (payload['use'] !== use || typeof payload.sub !== 'string' || payload.sub === '') return undefined;
      // Tokens issued before generations existed carry none: they belong to generation 0.
      const gen = payload['gen'] ?? 0;
      if (typeof gen !== 'number' || !Number.isInteger(gen)) return undefined;
      const sf = payload['sf'];
      if (sf !== undefined && typeof sf !== 'string') return undefined;
      const verified: VerifiedToken = { clientId: payload.sub, generation: gen, ...(sf === undefined ? {} : { secret: sf }) };
      this.verified.set(key, { token: verified, exp: payload.exp as number });
      return verified;
    } catch {
      return undefined;
    }
  }

  private sign(clientId: string, generation: number, secret: string | undefined, use: TokenUse, seconds: number): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ use, gen: generation, ...(secret === undefined ? {} : { sf: secret }) })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(clientId)
      .setIssuedAt(now)
      .setExpirationTime(now + seconds)
      .setJti(randomUUID())
      .sign(this.key);
  }
}

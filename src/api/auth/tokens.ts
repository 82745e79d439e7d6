import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';

export const ACCESS_TOKEN_SECONDS = 3600;
/** How long a chain of refresh tokens lasts, from the client credentials grant that began it. */
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
  /**
   * For a refresh token, when its chain began (epoch seconds): the client
   * credentials grant, carried from refresh to refresh. One issued before
   * refresh tokens carried it began its chain when it was issued.
   */
  chainStartedAt?: number;
}

const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Whether a chain of refresh tokens begun at `startedAt` has ended: its refresh tokens are refused from then on. */
export const refreshChainEnded = (startedAt: number): boolean => nowSeconds() >= startedAt + REFRESH_TOKEN_SECONDS;

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
 * leaked token names no customer. A refresh token also carries `cs`, when
 * its chain began: a refresh gives a new refresh token that ends when the
 * first of its chain did, so that a refresh token, which needs no client
 * secret, cannot keep a client's access alive forever.
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

  /**
   * Tokens of the client's secret `generation`; `secretHash`, when given,
   * marks which secret (secretFingerprint). `chainStartedAt` is when the
   * refresh tokens' chain began: now for client credentials, the refresh
   * token's own for a refresh.
   */
  async issue(clientId: string, generation: number, secretHash?: string, chainStartedAt = nowSeconds()): Promise<IssuedTokens> {
    const claims = { gen: generation, ...(secretHash === undefined ? {} : { sf: secretFingerprint(secretHash) }) };
    const now = nowSeconds();
    return {
      access_token: await this.sign(clientId, { use: 'access', ...claims }, now, now + ACCESS_TOKEN_SECONDS),
      token_type: 'Bearer',
      expires_in: ACCESS_TOKEN_SECONDS,
      refresh_token: await this.sign(clientId, { use: 'refresh', ...claims, cs: chainStartedAt }, now, chainStartedAt + REFRESH_TOKEN_SECONDS),
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
      // A refresh token issued before refresh tokens carried their chain's start began one when it was issued.
      const cs = use === 'refresh' ? (payload['cs'] ?? payload.iat) : undefined;
      if (cs !== undefined && (typeof cs !== 'number' || !Number.isInteger(cs))) return undefined;
      const verified: VerifiedToken = {
        clientId: payload.sub,
        generation: gen,
        ...(sf === undefined ? {} : { secret: sf }),
        ...(cs === undefined ? {} : { chainStartedAt: cs }),
      };
      this.verified.set(key, { token: verified, exp: payload.exp as number });
      return verified;
    } catch {
      return undefined;
    }
  }

  private sign(clientId: string, claims: Record<string, unknown>, now: number, expires: number): Promise<string> {
    return new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(ISSUER)
      .setSubject(clientId)
      .setIssuedAt(now)
      .setExpirationTime(expires)
      .setJti(randomUUID())
      .sign(this.key);
  }
}

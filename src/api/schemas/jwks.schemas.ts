import { z } from 'zod';

/** RFC 7517: the public keys that verify webhooks' X-Signature, by kid (= X-Signing-ID). */
export const jwksResponse = z.object({
  keys: z.array(z.looseObject({ kty: z.string(), kid: z.string(), alg: z.string(), use: z.string() })),
});

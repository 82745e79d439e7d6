import { z } from 'zod';
import { emptyObject, envelopeOf } from './common.js';

export const OP_OAUTH_TOKEN_POST = 'oauth_token_post';

export const tokenRequestBody = z.object({
  grant_type: z.enum(['client_credentials', 'refresh_token'], { error: (iss) => (iss.input === undefined ? 'is required' : 'must be client_credentials or refresh_token') }),
  refresh_token: z.string().min(1, 'must not be empty').max(4000, 'is too long').optional(),
});

export type TokenRequest = z.output<typeof tokenRequestBody>;

export const tokenResponse = envelopeOf(
  OP_OAUTH_TOKEN_POST,
  z.object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.literal(3600),
    refresh_token: z.string(),
  }),
  emptyObject,
);

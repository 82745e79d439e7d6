import { z } from 'zod';
import { envelopeOf } from './common.js';

export const OP_REFRESH_POST = 'v1_open_banking_refresh_post';
export const OP_REFRESH_GET = 'v1_open_banking_refresh_get';

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}(T[0-9:.]+(Z|[+-]\d{2}:\d{2}))?$/, 'must be a date formatted YYYY-MM-DD or an RFC 3339 timestamp');

export const refreshBody = z.object({
  provider: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  from: day.optional(),
  to: day.optional(),
});

export const taskIdParams = z.object({ task_id: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') });

const taskStatus = z.enum(['Pending', 'Completed', 'Failed']);

export const refreshStartedResponse = envelopeOf(
  OP_REFRESH_POST,
  z.object({ task_id: z.string(), provider: z.string() }),
  z.object({ status: taskStatus, next_url: z.string(), next_url_delay: z.number().int() }),
);

export const refreshTaskResponse = envelopeOf(
  OP_REFRESH_GET,
  z.object({
    task_id: z.string(),
    provider: z.string(),
    status: taskStatus,
    /** `success`, or a code_id of the interface; absent while pending. */
    result: z.string().optional(),
    reconnect_required: z.boolean(),
    step: z.number().int().min(1).max(4),
    text: z.string(),
  }),
  z.object({ has_new_transactions: z.boolean().optional(), status: taskStatus }),
);

import { z } from 'zod';
import { dateOrInstantParam, envelopeOf } from './common.js';
import { dayOrInstant } from '../../domain/timestamps.js';
import { HEADER_UNSAFE } from '../../domain/header-text.js';
import { boundedText } from '../../domain/text-schemas.js';

export const OP_REFRESH_POST = 'open_banking_refresh_post';
export const OP_REFRESH_GET = 'open_banking_refresh_get';

/** A real date or instant, as every date parameter is (common.ts). */
const day = dateOrInstantParam;

export const refreshBody = z
  .object({
    // Echoed in the answer and the webhook: one line of text, as an id is.
    provider: boundedText(200).min(1, 'is required').refine((s) => !HEADER_UNSAFE.test(s), 'must not hold a control character, nor begin or end with a space'),
    from: day.optional(),
    to: day.optional(),
  })
  .superRefine((b, ctx) => {
    if (b.from !== undefined && b.to !== undefined && Date.parse(dayOrInstant(b.from)) > Date.parse(dayOrInstant(b.to))) {
      ctx.addIssue({ code: 'custom', path: ['from'], message: 'must not be after to' });
    }
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
  z.object({
    has_new_transactions: z.boolean().optional(),
    status: taskStatus,
    /** Only while the task is pending. */
    next_url: z.string().optional(),
    next_url_delay: z.number().int().optional(),
  }),
);

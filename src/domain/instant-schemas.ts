import { z } from 'zod';
import { instantProblem, OCCURRED_AT_MAX_FUTURE_DAYS, utcInstant } from './instants.js';

/** ISO 8601 with a zone (Z or an offset), a real calendar date and time; normalised to UTC `...Z`, to the microsecond. */
export const isoInstant = z
  .string()
  .max(40, 'must be an ISO 8601 timestamp with a time zone')
  .superRefine((s, ctx) => {
    const problem = instantProblem(s);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  })
  .transform(utcInstant);

/** The version of an event: also at most OCCURRED_AT_MAX_FUTURE_DAYS after now. */
export const occurredAt = isoInstant.refine((iso) => Date.parse(iso) <= Date.now() + OCCURRED_AT_MAX_FUTURE_DAYS * 86_400_000, {
  message: `must be at most ${OCCURRED_AT_MAX_FUTURE_DAYS} days in the future`,
});

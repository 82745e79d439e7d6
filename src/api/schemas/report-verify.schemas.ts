import { z } from 'zod';
import { envelopeOf } from './common.js';

export const OP_REPORT_VERIFY_POST = 'v1_affordability_report_verify_post' as const;

/** The body: a report PDF afford made, as it was handed over (Content-Type: application/pdf). */
export const reportVerifyBody = z
  .instanceof(Buffer, { message: 'must be a PDF sent as application/pdf' })
  .meta({ type: 'string', format: 'binary', description: 'A report PDF that afford made' });

const figureValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

const verifyData = z.object({
  matches: z.boolean(),
  content_hash: z.string(),
  recomputed_hash: z.string().nullable(),
  intact: z.boolean(),
  signature: z.enum(['holds', 'broken', 'none']),
  customer_id: z.string(),
  client_id: z.string(),
  month_from: z.string(),
  month_to: z.string(),
  currency: z.string(),
  generated_at: z.string(),
  customer_exists: z.boolean(),
  changed_figures: z.array(z.object({
    figure: z.string(),
    label: z.string(),
    was: figureValue,
    now: figureValue,
    transactions: z.array(z.string()),
  })),
  changed_transactions: z.array(z.object({
    transaction_id: z.string(),
    change: z.enum(['later_version', 'deleted', 'added', 'left_the_report']),
    was_version: z.string().nullable(),
    now_version: z.string().nullable(),
    detail: z.string(),
  })),
});

export const reportVerifyResponse = envelopeOf(OP_REPORT_VERIFY_POST, verifyData, z.object({}));

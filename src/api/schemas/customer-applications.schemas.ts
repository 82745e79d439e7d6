import { z } from 'zod';
import { DATE_RANGE_ENDS, DEFAULT_DURATIONS, isDuration, type DateRangeEnd } from '../../domain/date-ranges.js';
import { envelopeOf } from './common.js';
import { DEFAULT_TIMEZONE, timezoneParam } from './timezone.js';

export const OP_CUSTOMER_APPLICATION_GET = 'v1_customer_application_get';

export const applicationIdParams = z.object({ application_id: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') });

/** The reference's query: the periods that metadata.date_ranges lists. */
export const applicationQuery = z.object({
  timezone: timezoneParam.default(DEFAULT_TIMEZONE),
  date_range_end: z.enum(DATE_RANGE_ENDS as [DateRangeEnd, ...DateRangeEnd[]]).default('latest_calendar_month'),
  date_range_durations: z
    .string()
    .max(200, 'must be at most 200 characters')
    .transform((s) => s.split(',').map((d) => d.trim()))
    .refine((list) => list.length <= 12 && list.every(isDuration), 'must be a comma list of at most 12 durations PnM (n up to 120) or PnD (n up to 3660)')
    .default([...DEFAULT_DURATIONS]),
});

const applicant = z.object({ first_name: z.string(), last_name: z.string() });

export const customerApplicationOut = z.object({
  application_id: z.string(),
  customer_id: z.string(),
  creation_date: z.iso.datetime(),
  /** The reference's type allows no null: empty when no deletion date is set. */
  deletion_date: z.union([z.iso.datetime(), z.literal('')]),
  assessment_date: z.iso.datetime().nullable().optional(),
  accounts_connected: z.number().int().nonnegative(),
  metadata: z.looseObject({ account_connection_initiator: z.string().optional(), application_id: z.string().optional() }),
  primary_applicant: applicant,
  secondary_applicants: z.array(z.looseObject(applicant.shape)),
  initiator_id: z.string(),
  customer_link: z
    .object({
      created_at: z.iso.datetime(),
      url: z.string(),
      finished_connecting_accounts: z.boolean(),
      expired: z.boolean(),
      status: z.string(),
    })
    .optional(),
  review_status: z.string(),
  assignee: z.string(),
  /** The only consent type the reference defines: afford runs no connections, so none stays open. */
  financial_data_consent: z.literal('one_time'),
});

export type CustomerApplicationOut = z.infer<typeof customerApplicationOut>;

export const customerApplicationMetadata = z.object({
  timezone: z.string(),
  date_range_end: z.enum(DATE_RANGE_ENDS as [DateRangeEnd, ...DateRangeEnd[]]),
  date_ranges: z.array(z.object({ from: z.string(), to: z.string(), duration: z.string() })),
});

export const customerApplicationResponse = envelopeOf(OP_CUSTOMER_APPLICATION_GET, customerApplicationOut, customerApplicationMetadata);

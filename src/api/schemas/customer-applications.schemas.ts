import { z } from 'zod';
import { emptyObject, envelopeOf } from './common.js';

export const OP_CUSTOMER_APPLICATION_GET = 'v1_customer_application_get';

export const applicationIdParams = z.object({ application_id: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') });

const applicant = z.object({ first_name: z.string(), last_name: z.string() });

export const customerApplicationOut = z.object({
  application_id: z.string(),
  customer_id: z.string(),
  creation_date: z.iso.datetime(),
  deletion_date: z.iso.datetime().nullable().optional(),
  assessment_date: z.iso.datetime().nullable().optional(),
  accounts_connected: z.number().int().nonnegative(),
  metadata: z.looseObject({ account_connection_initiator: z.string().optional(), application_id: z.string().optional() }),
  primary_applicant: applicant,
  secondary_applicants: z.array(z.looseObject(applicant.shape)).nullable(),
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
});

export type CustomerApplicationOut = z.infer<typeof customerApplicationOut>;

export const customerApplicationResponse = envelopeOf(OP_CUSTOMER_APPLICATION_GET, customerApplicationOut, emptyObject);

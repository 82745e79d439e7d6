import { z } from 'zod';
import { bucketDefinitionBodySchema, bucketGroupSchema } from '../../domain/buckets.js';
import { emptyObject, envelopeOf, queryFlag } from './common.js';

export const OP_BUCKETS_POST = 'aggregations_v2_buckets_post';
export const OP_BUCKETS_GET = 'aggregations_v2_buckets_get';
export const OP_BUCKET_GET = 'aggregations_v2_bucket_get';
export const OP_BUCKET_PUT = 'aggregations_v2_bucket_put';
export const OP_BUCKET_DELETE = 'aggregations_v2_bucket_delete';

export const bucketIdParams = z.object({ bucket_id: z.string().min(1, 'is required').max(200, 'must be at most 200 characters') });

export const bucketDefinitionBody = bucketDefinitionBodySchema;

export const bucketDetailQuery = z.object({
  unbucketed_categories: queryFlag,
  bucket_lookup: queryFlag,
  category_lookup: queryFlag,
});

const definitionFields = {
  bucket_id: z.string(),
  name: z.string(),
  categorisation_model: z.string(),
  created_at: z.iso.datetime(),
  updated_at: z.iso.datetime(),
};

export const bucketSummaryOut = z.object({ ...definitionFields, buckets: z.array(z.string()) });
export const bucketDetailOut = z.object({ ...definitionFields, buckets: z.array(bucketGroupSchema) });

const categoryPairOut = z.object({ category_l1: z.string(), category_l2: z.string() });
const bucketPairOut = z.object({ bucket_l1: z.string(), bucket_l2: z.string() });

export const bucketDetailMetadata = z.object({
  category_lookup: z.record(z.string(), z.record(z.string(), categoryPairOut)).optional(),
  bucket_lookup: z.record(z.string(), z.record(z.string(), bucketPairOut)).optional(),
  unbucketed_categories: z.array(categoryPairOut).optional(),
});

export const bucketCreatedResponse = envelopeOf(OP_BUCKETS_POST, z.object({ bucket_id: z.string() }), emptyObject);
export const bucketListResponse = envelopeOf(OP_BUCKETS_GET, z.array(bucketSummaryOut), emptyObject);
export const bucketDetailResponse = envelopeOf(OP_BUCKET_GET, bucketDetailOut, bucketDetailMetadata);
/** PUT and DELETE answer 204 with no body, as the reference API does. */
export const noContent = z.undefined();

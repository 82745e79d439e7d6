import { z } from 'zod';
import { findModel, hasPair, modelPairs, pairKey, type CategoryPair } from './taxonomy.js';

const snakeCase = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export const criterionSchema = z.object({
  bucket_l2: z.string().max(200, 'must be at most 200 characters').regex(snakeCase, 'must be a snake case name'),
  category_l1: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  category_l2: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  additional_data: z.record(z.string(), z.unknown()).optional(),
});

export const bucketGroupSchema = z.object({
  bucket_l1: z.string().max(200, 'must be at most 200 characters').regex(snakeCase, 'must be a snake case name'),
  criteria: z.array(criterionSchema).min(1, 'must have at least one criterion'),
  additional_data: z.record(z.string(), z.unknown()).optional(),
});

export const bucketDefinitionBodySchema = z.object({
  name: z.string().trim().min(1, 'is required').max(200, 'must be at most 200 characters'),
  categorisation_model: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  buckets: z.array(bucketGroupSchema).min(1, 'must have at least one bucket').max(100, 'must have at most 100 buckets'),
});

export type BucketDefinitionBody = z.infer<typeof bucketDefinitionBodySchema>;
export type Criterion = z.infer<typeof criterionSchema>;

/** Field path -> message, in the interface's validation format. */
export type FieldErrors = Record<string, string>;

/** Checks that go beyond shape: the model exists, pairs belong to it, no pair twice, no bucket twice. */
export function validateAgainstModel(body: BucketDefinitionBody): FieldErrors {
  const errors: FieldErrors = {};
  const model = findModel(body.categorisation_model);
  if (!model) {
    errors['categorisation_model'] = `unknown categorisation model '${body.categorisation_model}'`;
    return errors;
  }
  const seenPairs = new Map<string, string>();
  const seenBuckets = new Set<string>();
  body.buckets.forEach((group, gi) => {
    if (seenBuckets.has(group.bucket_l1)) errors[`buckets[${gi}].bucket_l1`] = `bucket '${group.bucket_l1}' appears twice`;
    seenBuckets.add(group.bucket_l1);
    group.criteria.forEach((c, ci) => {
      const path = `buckets[${gi}].criteria[${ci}]`;
      if (!hasPair(model, c.category_l1, c.category_l2)) {
        errors[path] = `unknown category pair '${c.category_l1}/${c.category_l2}' in model ${model.name}`;
        return;
      }
      const key = pairKey(c);
      const earlier = seenPairs.get(key);
      if (earlier) errors[path] = `category pair '${key}' is already mapped at ${earlier}`;
      else seenPairs.set(key, path);
    });
  });
  return errors;
}

export type BucketLookup = Record<string, Record<string, { bucket_l1: string; bucket_l2: string }>>;
export type CategoryLookup = Record<string, Record<string, CategoryPair>>;

export function bucketLookup(body: BucketDefinitionBody): BucketLookup {
  const out: BucketLookup = {};
  for (const g of body.buckets) {
    for (const c of g.criteria) {
      (out[c.category_l1] ??= {})[c.category_l2] = { bucket_l1: g.bucket_l1, bucket_l2: c.bucket_l2 };
    }
  }
  return out;
}

/**
 * Maps a bucket pair back to the category pair to apply when correcting a
 * transaction. Where several pairs share a bucket L2, the first criterion wins.
 */
export function categoryLookup(body: BucketDefinitionBody): CategoryLookup {
  const out: CategoryLookup = {};
  for (const g of body.buckets) {
    const inner = (out[g.bucket_l1] ??= {});
    for (const c of g.criteria) {
      inner[c.bucket_l2] ??= { category_l1: c.category_l1, category_l2: c.category_l2 };
    }
  }
  return out;
}

export function unbucketedCategories(body: BucketDefinitionBody): CategoryPair[] {
  const model = findModel(body.categorisation_model);
  if (!model) return [];
  const mapped = new Set(body.buckets.flatMap((g) => g.criteria.map((c) => pairKey(c))));
  return modelPairs(model).filter((p) => !mapped.has(pairKey(p)));
}

/** Flattened rows for storage and for joining against monthly totals. */
export interface CriterionRow {
  bucket_l1: string;
  bucket_l2: string;
  category_l1: string;
  category_l2: string;
}

export function criterionRows(body: BucketDefinitionBody): CriterionRow[] {
  return body.buckets.flatMap((g) =>
    g.criteria.map((c) => ({ bucket_l1: g.bucket_l1, bucket_l2: c.bucket_l2, category_l1: c.category_l1, category_l2: c.category_l2 })),
  );
}

import { z } from 'zod';
import { findModel, hasPair, modelPairs, pairKey, type CategoryPair } from './taxonomy.js';
import { keptObject } from './text-schemas.js';

const snakeCase = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;

export const criterionSchema = z.object({
  bucket_l2: z.string().max(200, 'must be at most 200 characters').regex(snakeCase, 'must be a snake case name'),
  category_l1: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  category_l2: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  // Stored and returned as sent: well-formed text (DuckDB's JSON refuses an unpaired surrogate) and finite numbers.
  additional_data: keptObject.optional(),
});

export const bucketGroupSchema = z.object({
  bucket_l1: z.string().max(200, 'must be at most 200 characters').regex(snakeCase, 'must be a snake case name'),
  criteria: z.array(criterionSchema).min(1, 'must have at least one criterion'),
  additional_data: keptObject.optional(),
});

/** The reference API's slug: a definition's name is one (no spaces), and so is the predefined set's. */
export const NAME_PATTERN = /^[A-Za-z0-9_-]*$/;

const bucketDefinitionShape = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'is required')
    .max(200, 'must be at most 200 characters')
    .regex(NAME_PATTERN, "must contain only letters, digits, '-' and '_'"),
  categorisation_model: z.string().min(1, 'is required').max(200, 'must be at most 200 characters'),
  buckets: z.array(bucketGroupSchema).min(1, 'must have at least one bucket').max(100, 'must have at most 100 buckets'),
});

/**
 * The shape and the model checks together: the model checks run even when
 * the shape has failed elsewhere, so that one answer names every offending
 * field (a missing name and an unknown category pair alike).
 */
export const bucketDefinitionBodySchema = bucketDefinitionShape.superRefine(
  (body, ctx) => {
    for (const issue of modelIssuesOf(body)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  },
  { when: () => true },
);

export type BucketDefinitionBody = z.infer<typeof bucketDefinitionShape>;

/**
 * A definition as stored: read back without the name rule, so that one
 * stored before names had to be slugs still reads.
 */
export const storedBucketDefinitionSchema = bucketDefinitionShape.extend({ name: z.string() });
export type Criterion = z.infer<typeof criterionSchema>;

/** Field path -> message, in the interface's validation format. */
export type FieldErrors = Record<string, string>;

export interface ModelIssue {
  path: (string | number)[];
  message: string;
}

const record = (v: unknown): Record<string, unknown> | undefined =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): readonly unknown[] => (Array.isArray(v) ? v : []);

/**
 * Checks that go beyond shape: the model exists, pairs belong to it, no pair
 * twice, no bucket twice. It reads whatever parts of the body are well formed
 * (the input may have failed its shape elsewhere) and skips the rest, whose
 * shape errors are reported on their own.
 */
export function modelIssuesOf(input: unknown): ModelIssue[] {
  const body = record(input);
  const modelName = text(body?.['categorisation_model']);
  if (modelName === undefined || modelName === '') return [];
  const model = findModel(modelName);
  if (!model) return [{ path: ['categorisation_model'], message: `unknown categorisation model '${modelName}'` }];
  const issues: ModelIssue[] = [];
  const seenPairs = new Map<string, string>();
  const seenBuckets = new Set<string>();
  list(body?.['buckets']).forEach((g, gi) => {
    const group = record(g);
    const bucketL1 = text(group?.['bucket_l1']);
    if (bucketL1 !== undefined) {
      if (seenBuckets.has(bucketL1)) issues.push({ path: ['buckets', gi, 'bucket_l1'], message: `bucket '${bucketL1}' appears twice` });
      seenBuckets.add(bucketL1);
    }
    list(group?.['criteria']).forEach((c, ci) => {
      const criterion = record(c);
      const categoryL1 = text(criterion?.['category_l1']);
      const categoryL2 = text(criterion?.['category_l2']);
      if (categoryL1 === undefined || categoryL2 === undefined) return;
      const path = ['buckets', gi, 'criteria', ci];
      if (!hasPair(model, categoryL1, categoryL2)) {
        issues.push({ path, message: `unknown category pair '${categoryL1}/${categoryL2}' in model ${model.name}` });
        return;
      }
      const key = pairKey({ category_l1: categoryL1, category_l2: categoryL2 });
      const earlier = seenPairs.get(key);
      if (earlier) issues.push({ path, message: `category pair '${key}' is already mapped at ${earlier}` });
      else seenPairs.set(key, `buckets[${gi}].criteria[${ci}]`);
    });
  });
  return issues;
}

/** The model checks of a well-formed body, keyed as the API names fields (buckets[0].criteria[1]). */
export function validateAgainstModel(body: BucketDefinitionBody): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of modelIssuesOf(body)) {
    const key = issue.path.reduce<string>((acc, k) => (typeof k === 'number' ? `${acc}[${k}]` : acc === '' ? k : `${acc}.${k}`), '');
    errors[key] ??= issue.message;
  }
  return errors;
}

export type BucketLookup = Record<string, Record<string, { bucket_l1: string; bucket_l2: string }>>;
export type CategoryLookup = Record<string, Record<string, CategoryPair>>;

// Built in Maps, then made plain objects: a name such as `constructor` or `__proto__`, which an object inherits,
// would otherwise find the inherited value (and write onto it) instead of a key of its own.
const plain = <V>(m: Map<string, V>): Record<string, V> => Object.fromEntries(m);

export function bucketLookup(body: BucketDefinitionBody): BucketLookup {
  const out = new Map<string, Map<string, { bucket_l1: string; bucket_l2: string }>>();
  for (const g of body.buckets) {
    for (const c of g.criteria) {
      let inner = out.get(c.category_l1);
      if (!inner) out.set(c.category_l1, (inner = new Map()));
      inner.set(c.category_l2, { bucket_l1: g.bucket_l1, bucket_l2: c.bucket_l2 });
    }
  }
  return plain(new Map([...out].map(([k, v]) => [k, plain(v)])));
}

/**
 * Maps a bucket pair back to the category pair to apply when correcting a
 * transaction. Where several pairs share a bucket L2, the first criterion wins.
 */
export function categoryLookup(body: BucketDefinitionBody): CategoryLookup {
  const out = new Map<string, Map<string, CategoryPair>>();
  for (const g of body.buckets) {
    let inner = out.get(g.bucket_l1);
    if (!inner) out.set(g.bucket_l1, (inner = new Map()));
    for (const c of g.criteria) {
      if (!inner.has(c.bucket_l2)) inner.set(c.bucket_l2, { category_l1: c.category_l1, category_l2: c.category_l2 });
    }
  }
  return plain(new Map([...out].map(([k, v]) => [k, plain(v)])));
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

/**
 * The category pair of a transaction that arrives without categories (the
 * reference API's v3 ingestion body has none): `general / other_general`,
 * which core-dashboard puts in `general`. Such a transaction is stored and
 * counted there rather than refused (docs/taxonomy.md).
 */
export const FALLBACK_CATEGORY = { l1: 'general', l2: 'other_general' } as const;

/** The enrichments of a transaction stored under the fallback pair (no confidence: nobody categorised it). */
export const fallbackCategories = (): { l1: { slug: string }; l2: { slug: string } } => ({
  l1: { slug: FALLBACK_CATEGORY.l1 },
  l2: { slug: FALLBACK_CATEGORY.l2 },
});

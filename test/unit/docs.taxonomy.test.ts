import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CORE_DASHBOARD } from '../../src/domain/core-dashboard.js';
import { FALLBACK_CATEGORY } from '../../src/domain/fallback-category.js';
import { UK_V2 } from '../../src/domain/taxonomy.js';

const page = readFileSync(new URL('../../docs/taxonomy.md', import.meta.url), 'utf8');
const rows = new Set(page.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| category_l1')).map((l) => l.trim()));

describe('docs/taxonomy.md', () => {
  it('lists every pair of uk-v2 with its labels and its core-dashboard bucket, and nothing else', () => {
    const bucketOf = new Map<string, string>();
    for (const b of CORE_DASHBOARD.buckets) for (const c of b.criteria) bucketOf.set(`${c.category_l1}/${c.category_l2}`, `${b.bucket_l1} / ${c.bucket_l2}`);
    const expected = UK_V2.categories.flatMap((c) =>
      c.subcategories.map((s) => `| ${c.name} | ${s.name} | ${s.labels.join(', ') || '-'} | ${bucketOf.get(`${c.name}/${s.name}`)} |`),
    );
    expect(expected.length).toBeGreaterThan(80);
    expect([...rows].sort()).toEqual([...expected].sort());
  });

  it('documents the fallback pair of uncategorised transactions, which core-dashboard puts in general', () => {
    const bucket = CORE_DASHBOARD.buckets.find((b) => b.criteria.some((c) => c.category_l1 === FALLBACK_CATEGORY.l1 && c.category_l2 === FALLBACK_CATEGORY.l2));
    expect(bucket?.bucket_l1).toBe('general');
    expect(page).toContain(`stored under the pair \`${FALLBACK_CATEGORY.l1} / ${FALLBACK_CATEGORY.l2}\``);
  });
});

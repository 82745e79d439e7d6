import { expect } from 'vitest';
import type { Store } from '../../src/db/store.js';
import { queryRows } from '../../src/db/rows.js';
import type { HostileLine } from '../fixtures/hostile-lines.js';
import { rowsAs } from './rows.js';

interface StoredRow {
  transaction_id: string;
  description: string;
  amount: string;
  running_balance: string | null;
}

/**
 * Checks the store after the hostile lines went in through a file or Kafka:
 * each dead line has exactly one dead letter whose reason matches, under the
 * position `positionOf` gives (line number or offset), and the stored
 * transactions are exactly those of the stored lines, as sent.
 */
export async function expectHostileOutcomes(store: Store, lines: readonly HostileLine[], column: 'line_number' | 'kafka_offset', positionOf: (index: number) => string): Promise<void> {
  const dead = await store.read((c) => rowsAs<{ position: string; reason: string; raw: string }>(c, `SELECT ${column}::VARCHAR AS position, reason, raw FROM dead_letters`));
  const byPosition = new Map(dead.map((d) => [d.position, d]));
  const expectedDead = lines.flatMap((l, i) => (l.outcome === 'stored' ? [] : [{ line: l, position: positionOf(i) }]));
  for (const { line, position } of expectedDead) {
    const letter = byPosition.get(position);
    expect(letter, `dead letter of '${line.name}'`).toBeDefined();
    expect(letter?.reason, `reason of '${line.name}'`).toMatch(line.outcome as RegExp);
    // A reason is short whatever the input, and an over-long input is kept by its start only.
    expect(letter?.reason.length, `reason of '${line.name}'`).toBeLessThanOrEqual(1200);
    expect(letter?.raw.length, `raw of '${line.name}'`).toBeLessThanOrEqual(65_536);
  }
  expect(dead).toHaveLength(expectedDead.length);

  const stored = await store.read((c) =>
    rowsAs<StoredRow>(c, 'SELECT transaction_id, description, amount::VARCHAR AS amount, running_balance::VARCHAR AS running_balance FROM transactions'),
  );
  const expectedIds = lines.flatMap((l) => (l.outcome === 'stored' ? [l.stored?.transactionId as string] : []));
  expect(stored.map((t) => t.transaction_id).sort()).toEqual([...expectedIds].sort());
  const byId = new Map(stored.map((t) => [t.transaction_id, t]));
  for (const l of lines) {
    if (l.outcome !== 'stored' || !l.stored) continue;
    const row = byId.get(l.stored.transactionId) as StoredRow;
    if (l.stored.description !== undefined) expect(row.description, l.name).toBe(l.stored.description);
    if (l.stored.amount !== undefined) expect(row.amount, l.name).toBe(l.stored.amount);
    if (l.stored.runningBalance !== undefined) expect(row.running_balance, l.name).toBe(l.stored.runningBalance);
  }

  // Two of the largest amounts in one month and category: their total fits.
  const totals = await store.read((c) =>
    queryRows(c, `SELECT total::VARCHAR AS total, transaction_count FROM monthly_category_totals WHERE category_l2 = 'salary' AND month = DATE '2024-04-01'`),
  );
  expect(totals).toEqual([{ total: '1999999999.98', transaction_count: 2 }]);
  expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
}

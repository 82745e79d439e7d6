import { describe, expect, it } from 'vitest';
import { generateEvents } from '../../src/generate/index.js';
import { quickEvent } from '../../src/ingest/fast-event.js';
import { eachFastRow, fastRow, fastRows, fastRowsOfBytes } from '../../src/ingest/fast-rows.js';
import { RowBytes } from '../../src/ingest/fast-row-bytes.js';
import { scanRow } from '../../src/ingest/fast-scan.js';
import { packTexts, strictText } from '../../src/ingest/packed-texts.js';
import type { TransactionEvent } from '../../src/ingest/transaction-cells.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { FIELDS, mutationBases, VALUES } from '../helpers/event-mutations.js';
import { mutate } from '../helpers/json-mutate.js';

const lines = [...generateEvents({ customers: 12, months: 4, seed: 11, faults: true, endMonth: '2024-04' })].map((l) => l.trimEnd());
const transactionLines = lines.filter((l) => l.includes('"type":"transaction.'));
const utf8 = new TextEncoder();

/** The row the check on parsed JSON gives a text (fast-rows.ts), or undefined. */
function textRow(text: string, seq: number): string | undefined {
  const e = quickEvent(text);
  return e ? fastRow(seq, e as TransactionEvent, text.includes('\\')) : undefined;
}

/** The row the byte scan writes for a text, or undefined when it gives the text up. */
function scanned(text: string, seq: number): string | undefined {
  const rows = new RowBytes();
  rows.byte(0x41);
  const bytes = utf8.encode(`  ${text}`);
  if (!scanRow(bytes, 2, bytes.length, seq, rows)) {
    // Giving up writes nothing.
    expect(rows.length).toBe(1);
    return undefined;
  }
  return new TextDecoder().decode(rows.bytes.subarray(1, rows.length));
}

/** The same JSON with the keys of every object in reverse order. */
function reversed(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reversed);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reversed(x)]));
}

/** The forms a JSON value may be written in: compact, keys reversed, spread over lines with white space. */
const forms = (json: unknown): string[] => [JSON.stringify(json), JSON.stringify(reversed(json)), JSON.stringify(json, null, '\t'), JSON.stringify(json, null, 1).replace(/\n/g, '\r\n')];

describe('the byte scan of transaction events', () => {
  it('takes nearly every generated transaction event, writing the very row the check on parsed JSON writes', () => {
    let taken = 0;
    transactionLines.forEach((line, seq) => {
      const row = scanned(line, seq);
      if (row === undefined) return;
      taken++;
      expect(row).toBe(textRow(line, seq));
    });
    expect(taken).toBeGreaterThan(transactionLines.length * 0.9);
  });

  it('takes nothing the check on parsed JSON leaves to the schema, and writes its row for every mutation of a field, in every form', () => {
    const bases = mutationBases(transactionLines);
    let taken = 0;
    let refused = 0;
    for (const base of bases) {
      for (const path of FIELDS) {
        for (const value of VALUES) {
          for (const text of forms(mutate(base, path, value))) {
            const expected = textRow(text, 7);
            const row = scanned(text, 7);
            const what = `${path.join('.')} = ${JSON.stringify(value)} in ${JSON.stringify(text.slice(0, 20))}`;
            if (row !== undefined) {
              taken++;
              expect(row, what).toBe(expected);
            } else if (expected === undefined) refused++;
          }
        }
      }
    }
    // Both ways are exercised: rows written, and events left to the schema.
    expect(taken).toBeGreaterThan(1000);
    expect(refused).toBeGreaterThan(1000);
  });

  it('gives up on what it does not read (escapes, other than ASCII, a key twice, numbers), and the text check then decides', () => {
    const line = transactionLines.find((l) => l.includes('"confidence":"0.95"') && l.includes('"description":')) as string;
    const cases = [
      line.replace('"description":"', '"description":"Caf\u00e9 '),
      line.replace('"description":"', '"description":"\\u0041'),
      line.replace('"description":"', '"description":"tab\\t'),
      line.replace('"confidence":"0.95"', '"confidence":0.95'),
      line.replace('{"event_id":', '{"event_id":"first","event_id":'),
      line.replace('"occurred_at":"2024-', '"occurred_at":"2024-01-01T10:00:00.000Z","x":"'),
    ];
    for (const text of cases) {
      expect(scanned(text, 0), text).toBeUndefined();
      const bytes = utf8.encode(text);
      const found = fastRowsOfBytes([bytes], 3);
      const expected = fastRows([text], 3);
      expect(found.slow).toEqual(expected.slow);
      expect([...eachFastRow(found.rows)]).toEqual([...eachFastRow(expected.rows)]);
    }
    // The first four go in through the text check; a key twice and an unknown key do not.
    expect(cases.map((text) => textRow(text, 0) !== undefined)).toEqual([true, true, true, true, true, false]);
  });

  it('refuses a raw control character in a string, as JSON does', () => {
    const line = transactionLines.find((l) => l.includes('"description":')) as string;
    const text = line.replace('"description":"', '"description":"a\tb');
    expect(() => JSON.parse(text)).toThrow();
    expect(scanned(text, 0)).toBeUndefined();
    expect(fastRowsOfBytes([utf8.encode(text)]).slow).toEqual([0]);
  });

  it('finds what the text check finds in every generated and hostile line, as bytes, packed or each where it lies', () => {
    const values = [...lines.map((l) => utf8.encode(l)), ...HOSTILE_LINES.map((l) => new Uint8Array(l.bytes.subarray(0, l.bytes.length - (l.bytes.at(-1) === 0x0a ? 1 : 0))))];
    const expected = fastRows(values.map(strictText), 5);
    const found = fastRowsOfBytes(values, 5);
    expect(fastRowsOfBytes(packTexts(values), 5)).toEqual(found);
    expect(found.slow).toEqual(expected.slow);
    expect([...eachFastRow(found.rows)].sort()).toEqual([...eachFastRow(expected.rows)].sort());
    expect([...eachFastRow(found.rows)].length).toBeGreaterThan(lines.length * 0.9);
  });
});

import { describe, expect, it } from 'vitest';
import { parseEvent } from '../../src/domain/events.js';
import { generateEvents } from '../../src/generate/index.js';
import { quickTransactionEvent } from '../../src/ingest/fast-event.js';
import { HOSTILE_LINES } from '../fixtures/hostile-lines.js';
import { mutate } from '../helpers/json-mutate.js';
import { FIELDS, mutationBases, VALUES } from '../helpers/event-mutations.js';


const lines = [...generateEvents({ customers: 12, months: 4, seed: 11, faults: true, endMonth: '2024-04' })].map((l) => l.trimEnd());
const transactionLines = lines.filter((l) => l.includes('"type":"transaction.'));

/** What the schema says of a line: the event it returns, or undefined for a reject. */
function schema(raw: string): unknown {
  const parsed = parseEvent(raw);
  return parsed.ok ? parsed.event : undefined;
}

describe('the quick check of transaction events', () => {
  it('takes most generated transaction events, each exactly as the schema returns it', () => {
    let taken = 0;
    for (const raw of transactionLines) {
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        continue;
      }
      const quick = quickTransactionEvent(json);
      if (quick === undefined) continue;
      taken++;
      const expected = schema(raw);
      expect(quick).toEqual(expected);
      expect(JSON.stringify(quick)).toBe(JSON.stringify(expected));
    }
    expect(taken).toBeGreaterThan(transactionLines.length * 0.9);
  });

  it('takes no event the schema rejects, and returns what the schema returns for every mutation of a field', () => {
    const bases = mutationBases(transactionLines);
    let checked = 0;
    for (const base of bases) {
      for (const path of FIELDS) {
        for (const value of VALUES) {
          const json = mutate(base, path, value);
          const quick = quickTransactionEvent(json);
          if (quick === undefined) continue;
          checked++;
          const expected = schema(JSON.stringify(json));
          expect(expected, `${path.join('.')} = ${JSON.stringify(value)}`).toBeDefined();
          expect(JSON.stringify(quick), `${path.join('.')} = ${JSON.stringify(value)}`).toBe(JSON.stringify(expected));
        }
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('gives the answer of the schema for every hostile line it takes', () => {
    for (const line of HOSTILE_LINES) {
      const raw = line.bytes.toString('utf8').trimEnd();
      let json: unknown;
      try {
        json = JSON.parse(raw);
      } catch {
        continue;
      }
      const quick = quickTransactionEvent(json);
      if (quick === undefined) continue;
      expect(JSON.stringify(quick), line.name).toBe(JSON.stringify(schema(raw)));
    }
  });

  it('leaves numbers JSON text can hold but the schema refuses to the schema (a confidence of 1e400 parses to Infinity)', () => {
    const line = transactionLines.find((l) => l.includes('"confidence":"0.95"')) as string;
    const raw = line.replace('"confidence":"0.95"', '"confidence":1e400');
    expect(quickTransactionEvent(JSON.parse(raw))).toBeUndefined();
    expect(schema(raw)).toBeUndefined();
  });
});

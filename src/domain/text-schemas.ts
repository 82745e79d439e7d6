import { z } from 'zod';
import { LIMITS } from './event-limits.js';
import { HEADER_UNSAFE, HEADER_UNSAFE_MESSAGE, SECRET_HEADER_UNSAFE_MESSAGE, SECRET_MAX_CHARS } from './header-text.js';

const LONE_SURROGATE = /\p{Cs}/u;

/** A string of at most `max` characters, with no unpaired surrogate (it could not be stored as UTF-8 without changing it). */
export function boundedText(max: number): z.ZodString {
  return z.string().max(max, `must be at most ${max} characters`).refine((s) => !LONE_SURROGATE.test(s), 'must be valid Unicode text');
}

export const idText = boundedText(LIMITS.id).min(1, 'is required');

/** A client or customer id: one an HTTP header can name (header-text.ts). */
export const headerIdText = idText.refine((s) => !HEADER_UNSAFE.test(s), HEADER_UNSAFE_MESSAGE);
/**
 * A customer's secret, as an event or an ingestion sets it: one that
 * X-Customer-Secret can carry, since every read of the customer must
 * present it. One with a space at an end, a control character or an
 * unpaired surrogate made a customer whose data no request could read.
 */
export const customerSecretText = boundedText(SECRET_MAX_CHARS).min(1, 'must not be empty').refine((s) => !HEADER_UNSAFE.test(s), SECRET_HEADER_UNSAFE_MESSAGE);
export const freeText = boundedText(LIMITS.text);
export const codeText = boundedText(LIMITS.code);

/**
 * What a JSON value kept as it came, whose fields the schema does not
 * name, holds that could not be kept so: a text (a key included) with an
 * unpaired surrogate, which DuckDB's JSON refuses; a number past a
 * double's range (1e400), which reads as Infinity and was kept as null; a
 * whole number from 2^53 to 1e21 (a 19-digit id sent as a number), which
 * reads as the nearest double and was kept with other last digits
 * (12345678901234567891 came back as 12345678901234567000). Past 1e21 a
 * double is written with an exponent (6.02e23), as such a number is sent,
 * and kept so; below 2^53 every whole number is kept exactly. Without the
 * number's text (which Node 20's JSON.parse does not give) the values in
 * between that a double does hold exactly (2^53 itself) are refused too.
 * Walked once, without recursion (its nesting is bounded anyway), and one
 * child at a time: spread, an array of some 125,000 items overflowed the
 * call stack.
 */
function unkeptThroughout(value: unknown): { illFormed: boolean; infinite: boolean; rounded: boolean } {
  const found = { illFormed: false, infinite: false, rounded: false };
  const stack: unknown[] = [value];
  while (stack.length > 0 && !(found.illFormed && found.infinite && found.rounded)) {
    const node = stack.pop();
    if (typeof node === 'string') {
      if (LONE_SURROGATE.test(node)) found.illFormed = true;
    } else if (typeof node === 'number') {
      if (!Number.isFinite(node)) found.infinite = true;
      else if (Number.isInteger(node) && !Number.isSafeInteger(node) && Math.abs(node) < 1e21) found.rounded = true;
    } else if (node !== null && typeof node === 'object') {
      for (const [key, child] of Object.entries(node)) {
        if (LONE_SURROGATE.test(key)) found.illFormed = true;
        stack.push(child);
      }
    }
  }
  return found;
}

export const WELL_FORMED_THROUGHOUT = 'must be valid Unicode text throughout';
export const FINITE_THROUGHOUT = 'must hold no number beyond a double\'s range (such as 1e400), which could not be kept as sent';
export const EXACT_THROUGHOUT = 'must hold no whole number from 9007199254740992 to 1e21 (such as a 19-digit id sent as a number), which could not be kept as sent: send it as a string';

/** `schema` for a value kept as it came, fields afford does not read included: well-formed text, finite numbers and whole numbers kept exactly, throughout. */
export function keptAsSent<T extends z.ZodType>(schema: T) {
  return schema.superRefine((value, ctx) => {
    const { illFormed, infinite, rounded } = unkeptThroughout(value);
    if (illFormed) ctx.addIssue({ code: 'custom', message: WELL_FORMED_THROUGHOUT });
    if (infinite) ctx.addIssue({ code: 'custom', message: FINITE_THROUGHOUT });
    if (rounded) ctx.addIssue({ code: 'custom', message: EXACT_THROUGHOUT });
  });
}

/** A JSON object kept as it came. */
export const keptObject = keptAsSent(z.record(z.string(), z.unknown()));

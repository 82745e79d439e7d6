import type { DbSettings } from '../db/db-settings.js';

/**
 * How a report's JSON text is cut into the parts it is stored in
 * (affordability_report_parts, see sql/migrations/013_report_parts.sql):
 * 1,000 UTF-16 code units each, never splitting a character of two. Every
 * part is under 4,096 bytes of UTF-8 (at most 3,000), so that DuckDB stores
 * it inline in its row group, not in an overflow block; and a row group
 * (122,880 rows) holds some 120 MB of text, not 480 MB as with parts of 4 KB:
 * a checkpoint rewrites the row group that rows were added to, whole, and
 * the snapshot, which checkpoints after every slice of reports, peaked 90 MB
 * higher with parts of 4,000 characters. Joined in order, the parts are the
 * text again, exactly.
 */

/** DuckDB stores a string of this many bytes or more outside its row group. */
export const INLINE_STRING_LIMIT_BYTES = 4096;

/** UTF-16 code units per part: at most three bytes each in UTF-8 (a surrogate pair is four bytes for two). */
export const PART_CODE_UNITS = 1000;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The parts of `text`, in order; at least one, so that an empty text is stored too. */
export function reportParts(text: string): string[] {
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + PART_CODE_UNITS, text.length);
    // A character outside the BMP is two code units: never cut between them.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts.length > 0 ? parts : [''];
}

/**
 * How a checkpoint of report parts is best made: without trying DuckDB's
 * dictionary compressions (Dictionary in a store of the older storage
 * format, DICT_FSST in the newer one; see sql/queries/db/create-store.sql),
 * whose analysis holds every distinct string of a row group (some 120,000
 * parts of up to 4 KB) in memory beyond DuckDB's memory limit, for text
 * that does not repeat. With it, `afford jobs run all` on 2,000 customers
 * rose from about 600 to 949 MiB at the checkpoint after the report job.
 * Other tables keep it: their short, repeated strings are what it is for.
 */
export const REPORT_PARTS_CHECKPOINT_SETTINGS: DbSettings = { disabled_compression_methods: 'dictionary,dict_fsst' };

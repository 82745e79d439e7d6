import type { DbSettings } from '../db/db-settings.js';

/**
 * How a report's JSON text is cut into the parts it is stored in
 * (affordability_report_parts, see sql/migrations/013_report_parts.sql):
 * every part under 4,096 bytes of UTF-8, so that DuckDB stores it inline in
 * its row group, not in an overflow block. Joined in order, the parts are the
 * text again, exactly.
 */

/** DuckDB stores a string of this many bytes or more outside its row group. */
export const INLINE_STRING_LIMIT_BYTES = 4096;

/** Characters per part of a text that is all ASCII (one byte each). */
const ASCII_PART = 4000;
/** UTF-16 code units per part of any other text: at most three bytes each (a surrogate pair is four bytes for two). */
const OTHER_PART = 1300;

const NON_ASCII = /[^ -~\t\n\r]/; // anything but printable ASCII and the white space JSON may hold

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/** The parts of `text`, in order; at least one, so that an empty text is stored too. */
export function reportParts(text: string): string[] {
  const size = NON_ASCII.test(text) ? OTHER_PART : ASCII_PART;
  const parts: string[] = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + size, text.length);
    // A character outside the BMP is two code units: never cut between them.
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end--;
    parts.push(text.slice(start, end));
    start = end;
  }
  return parts.length > 0 ? parts : [''];
}

/**
 * How a checkpoint of report parts is best made: without trying DuckDB's
 * dictionary compression, whose analysis holds every distinct string of a
 * row group (some 120,000 parts of up to 4 KB) in memory beyond DuckDB's
 * memory limit, for text that does not repeat. With it, `afford jobs run
 * all` on 2,000 customers rose from about 600 to 949 MiB at the checkpoint
 * after the report job. Other tables keep it: their short, repeated strings
 * are what it is for.
 */
export const REPORT_PARTS_CHECKPOINT_SETTINGS: DbSettings = { disabled_compression_methods: 'dictionary' };

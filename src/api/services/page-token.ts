import { z } from 'zod';
import { validationError } from '../errors.js';

/** Where a page ends in the order (date_time desc, transaction_id desc). */
export interface KeysetPosition {
  dateTime: string;
  transactionId: string;
}

const positionSchema = z.object({ v: z.literal(1), d: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/), i: z.string().min(1) });

function realInstant(text: string): boolean {
  const [date, time] = text.split(' ') as [string, string];
  const ms = Date.parse(`${date}T${time.slice(0, 12)}Z`);
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 19) === `${date}T${time.slice(0, 8)}`;
}

/** Opaque to clients: base64url JSON of the last row's keyset position. */
export function encodePageToken(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ v: 1, d: position.dateTime, i: position.transactionId })).toString('base64url');
}

export function decodePageToken(token: string): KeysetPosition {
  try {
    const parsed = positionSchema.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    // A real instant, as the store wrote it: a made-up one (2024-02-30, 25:00) would fail in SQL, not here.
    if (!realInstant(parsed.d)) throw new Error('not a real instant');
    return { dateTime: parsed.d, transactionId: parsed.i };
  } catch {
    throw validationError({ page_token: 'is not a valid page token' });
  }
}

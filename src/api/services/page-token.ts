import { z } from 'zod';
import { validationError } from '../errors.js';

/** Where a page ends in the order (date_time desc, transaction_id desc). */
export interface KeysetPosition {
  dateTime: string;
  transactionId: string;
}

const positionSchema = z.object({ v: z.literal(1), d: z.string().regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?$/), i: z.string().min(1) });

/** Opaque to clients: base64url JSON of the last row's keyset position. */
export function encodePageToken(position: KeysetPosition): string {
  return Buffer.from(JSON.stringify({ v: 1, d: position.dateTime, i: position.transactionId })).toString('base64url');
}

export function decodePageToken(token: string): KeysetPosition {
  try {
    const parsed = positionSchema.parse(JSON.parse(Buffer.from(token, 'base64url').toString('utf8')));
    return { dateTime: parsed.d, transactionId: parsed.i };
  } catch {
    throw validationError({ page_token: 'is not a valid page token' });
  }
}

import { createHash } from 'node:crypto';
import path from 'node:path';
import type { CustomerRef } from '../src/domain/customer-ref.js';

/**
 * Where the nightly report job keeps a customer's PDF of a range of months:
 * `<dir>/<from>_<to>/<client>/<customer>.pdf`, one folder per client, since
 * two clients may use the same customer id.
 */

/**
 * Longest a client or customer id may be, encoded, and still name its file
 * as it is: a file name is at most 255 bytes, and `.pdf.partial` follows it.
 */
const MAX_NAME_BYTES = 200;

/**
 * An id as one file or folder name. Ids are any text of up to 200
 * characters: percent-encoded, a name can be twelve times longer (an emoji
 * is 12 bytes), so an id whose encoding passes MAX_NAME_BYTES is named by
 * `#` and the SHA-256 of the id instead (`#` never appears in an encoded
 * name, so the two kinds never meet). `.` and `..` are encoded too, or
 * `path.join` would take them for the folder itself or the one above.
 */
export function fileNameOf(id: string): string {
  const encoded = encodeURIComponent(id);
  if (encoded.length > MAX_NAME_BYTES) return `#${createHash('sha256').update(id).digest('hex')}`;
  return encoded === '.' || encoded === '..' ? encoded.replaceAll('.', '%2E') : encoded;
}

export function pdfPathOf(dir: string, range: { from: string; to: string }, customer: CustomerRef): string {
  return path.join(dir, `${range.from}_${range.to}`, fileNameOf(customer.clientId), `${fileNameOf(customer.customerId)}.pdf`);
}

/** A PDF's place under its range folder, `<client>/<customer>.pdf`, as a key to look up. */
export const pdfPlaceOf = (customer: CustomerRef): string => `${fileNameOf(customer.clientId)}/${fileNameOf(customer.customerId)}.pdf`;

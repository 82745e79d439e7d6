import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { queryFile } from '../db/script.js';
import type { Store } from '../db/store.js';
import { affordError } from '../domain/errors.js';

/**
 * A report PDF's signature: an HMAC-SHA256 of the file's bytes under the
 * store's report signing key (017_report_signing_keys.sql), written as one
 * comment line after the file's end (`%%EOF`), where PDF readers look no
 * further. The content hash the PDF carries says whether the store still
 * gives the report; anyone can compute it afresh, and it covers neither the
 * printed pages nor the file. The signature covers every byte, and only
 * afford can make it: a file whose pages, figures or embedded data were
 * changed after afford made it, or that afford never made, does not hold it.
 */

const LINE_START = '%afford-signature v1 ';
const LINE = /\n%afford-signature v1 ([0-9a-f]{64})\n$/;

export type SignatureState = 'holds' | 'broken' | 'none';

const mac = (key: Buffer, bytes: Buffer): Buffer => createHmac('sha256', key).update(bytes).digest();

/** The PDF with its signature line added (a PDF that carries one already is signed again, not twice). */
export function signPdf(pdf: Buffer, key: Buffer): Buffer {
  const body = unsigned(pdf);
  return Buffer.concat([body, Buffer.from(`\n${LINE_START}${mac(key, body).toString('hex')}\n`, 'latin1')]);
}

function unsigned(pdf: Buffer): Buffer {
  const tail = pdf.subarray(Math.max(0, pdf.length - 100)).toString('latin1');
  const found = LINE.exec(tail);
  return found ? pdf.subarray(0, pdf.length - found[0].length) : pdf;
}

/** Whether the PDF's signature holds under `key`: 'none' when it carries none (made before PDFs were signed, or cut off). */
export function signatureState(pdf: Buffer, key: Buffer): SignatureState {
  const tail = pdf.subarray(Math.max(0, pdf.length - 100)).toString('latin1');
  const found = LINE.exec(tail);
  if (!found) return 'none';
  const given = Buffer.from(found[1] as string, 'hex');
  const expected = mac(key, pdf.subarray(0, pdf.length - found[0].length));
  return timingSafeEqual(given, expected) ? 'holds' : 'broken';
}

const keys = new WeakMap<Store, Promise<Buffer>>();

/** The store's report signing key, generated on first use and kept; read once per process. */
export function reportSigningKey(store: Store): Promise<Buffer> {
  let key = keys.get(store);
  if (!key) {
    key = store.write(async (conn) => {
      await queryFile(conn, 'queries/reports/ensure-signing-key', { key_id: randomUUID(), secret: randomBytes(32).toString('base64url') });
      const [row] = await queryFile<{ secret: string }>(conn, 'queries/reports/get-signing-key', {}, { secret: 'text' });
      if (!row?.secret) throw affordError('SIGNING_KEY_MISSING', 'report');
      return Buffer.from(row.secret, 'base64url');
    });
    // A failure is not kept: the next PDF asks again.
    key.catch(() => keys.delete(store));
    keys.set(store, key);
  }
  return key;
}

/** The PDF signed with the store's key: what afford hands out. */
export async function signedPdf(store: Store, pdf: Buffer): Promise<Buffer> {
  return signPdf(pdf, await reportSigningKey(store));
}

import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CustomerRef } from '../src/domain/customer-ref.js';
import { msFromDb } from '../src/domain/timestamps.js';
import { pdfPlaceOf } from './report-pdf-paths.js';

/**
 * The upkeep of the report PDFs' folder after a nightly run: no PDF outlives
 * the customer, or the data, it was made from (report-pdf-paths.ts says
 * where each PDF lies).
 */

const RANGE_FOLDER = /^\d{4}-\d{2}_\d{4}-\d{2}$/;

function safeDecode(name: string): string | undefined {
  try {
    return decodeURIComponent(name);
  } catch {
    return undefined;
  }
}

/**
 * Removes the PDFs of customers the store no longer has (deleted since an
 * earlier run), in every range folder: their data must not outlive them here.
 */
export async function pruneDeletedCustomers(dir: string, customers: readonly CustomerRef[]): Promise<number> {
  const places = new Set(customers.map(pdfPlaceOf));
  const ids = new Set(customers.map((c) => c.customerId));
  let removed = 0;
  const prune = async (folder: string, isKept: (name: string) => boolean): Promise<void> => {
    for (const file of await readdir(folder, { withFileTypes: true })) {
      // A PDF half written when a process died: every write of this run has ended by now.
      const partial = file.isFile() && file.name.endsWith('.pdf.partial');
      if (!partial && (!file.isFile() || !file.name.endsWith('.pdf') || isKept(file.name))) continue;
      await rm(path.join(folder, file.name), { force: true });
      removed++;
    }
  };
  const folders = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const folder of folders) {
    if (!folder.isDirectory() || !RANGE_FOLDER.test(folder.name)) continue;
    const rangeDir = path.join(dir, folder.name);
    // PDFs written before there was a folder per client: kept while any client has the customer id (or not one of ours).
    await prune(rangeDir, (name) => {
      const customerId = safeDecode(name.slice(0, -4));
      return customerId === undefined || ids.has(customerId);
    });
    // Each client's folder: what a customer the store has would be named, and nothing else, is kept.
    for (const sub of await readdir(rangeDir, { withFileTypes: true })) {
      if (sub.isDirectory()) await prune(path.join(rangeDir, sub.name), (name) => places.has(`${sub.name}/${name}`));
    }
  }
  return removed;
}

/**
 * Removes, in every range folder, the PDFs of customers deleted since the PDF
 * was written: a deletion keeps records newer than itself, and the customer
 * with them, so such a customer is still in the store, but their PDFs of
 * earlier nights show what the deletion removed.
 */
export async function pruneOutdatedByDeletion(dir: string, deletions: ReadonlyArray<{ client_id: string; customer_id: string; deleted_at: string }>): Promise<number> {
  if (deletions.length === 0) return 0;
  const folders = (await readdir(dir, { withFileTypes: true }).catch(() => [])).filter((f) => f.isDirectory() && RANGE_FOLDER.test(f.name));
  let removed = 0;
  for (const d of deletions) {
    const deletedAt = msFromDb(d.deleted_at);
    for (const folder of folders) {
      const file = path.join(dir, folder.name, pdfPlaceOf({ clientId: d.client_id, customerId: d.customer_id }));
      const written = await stat(file).then((s) => s.mtimeMs, () => undefined);
      if (written === undefined || written >= deletedAt) continue;
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

import type { Command } from 'commander';
import { readableInstant, longMonth } from '../reports/pdf-format.js';
import { describeValue } from '../reports/report-figure-names.js';
import { isRefused, MAX_REPORT_PDF_BYTES, provenanceOf, verifyPdf, type VerifyResult } from '../reports/report-verify.js';
import { boundedFileBytes } from './input-file.js';
import { cliContext, errOut, out, setExitCode, withStore } from './context.js';

/** Exit codes: 0 the report matches the store, 1 it does not, 2 the file is not a report afford can check. */
const SIGNATURE_WORDS = {
  holds: 'signature holds: the file is as afford made it',
  broken: 'signature does not hold: the file was changed after afford made it (or another store signed it)',
  none: 'no signature: afford did not sign this file (made before PDFs were signed, or the signature was cut off)',
} as const;

function describe(file: string, r: VerifyResult): string {
  const lines: string[] = [];
  const what = `customer ${r.customer_id} of client ${r.client_id}, ${longMonth(r.month_from)} to ${longMonth(r.month_to)}, made ${readableInstant(r.generated_at)}`;
  if (r.matches) {
    lines.push(`${file}: matches the store`, `  ${what}`, `  content hash ${r.content_hash}`, `  ${SIGNATURE_WORDS[r.signature]}`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`${file}: does not match the store`, `  ${what}`, `  content hash in the PDF ${r.content_hash}`, `  content hash now        ${r.recomputed_hash ?? 'none (the customer no longer exists)'}`,
    `  ${SIGNATURE_WORDS[r.signature]}`);
  if (!r.intact) lines.push('  the figures in the PDF no longer give the hash it carries: the file was altered after it was made');
  if (r.changed_figures.length) {
    lines.push('changed figures:');
    for (const f of r.changed_figures) {
      const why = f.transactions.length ? ` (transactions ${f.transactions.join(', ')})` : '';
      lines.push(`  ${f.label}: ${describeValue(f.figure, f.was, r.currency)} -> ${describeValue(f.figure, f.now, r.currency)}${why}`);
    }
  }
  if (r.changed_transactions.length) {
    lines.push('changed transactions:');
    for (const t of r.changed_transactions) lines.push(`  ${t.transaction_id}: ${t.detail}`);
  }
  return `${lines.join('\n')}\n`;
}

export function registerReportVerify(report: Command): void {
  report
    .command('verify')
    .argument('<file>', 'a report PDF that afford made')
    .description('recompute a report PDF from the store: does it still match, and if not, what changed and why')
    .option('--json', 'print the result as JSON')
    .action(async (file: string, opts: { json?: boolean }) => {
      // Read no further than a report can be: /dev/zero took memory without end.
      const bytes = await boundedFileBytes(file, MAX_REPORT_PDF_BYTES);
      if (bytes instanceof Error) {
        errOut(`afford report verify: cannot read ${file}: ${bytes.message}\n`);
        return setExitCode(2);
      }
      const provenance = provenanceOf(bytes);
      if (!provenance) {
        errOut(`afford report verify: ${file} carries no afford report data (it is not a report afford made, or another program saved it again)\n`);
        return setExitCode(2);
      }
      if (isRefused(provenance)) {
        errOut(`afford report verify: ${file} carries report data that afford did not make: ${provenance.refused}\n`);
        return setExitCode(2);
      }
      await withStore(cliContext(), async (store) => {
        const result = await verifyPdf(store, bytes, provenance);
        out(opts.json ? `${JSON.stringify(result, null, 2)}\n` : describe(file, result));
        setExitCode(result.matches ? 0 : 1);
      });
    });
}

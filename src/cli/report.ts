import type { Command } from 'commander';
import { collect } from './repeated-options.js';
import { writeFile } from 'node:fs/promises';
import { isKnownCurrency } from '../domain/currencies.js';
import { MAX_RANGE_MONTHS, wholeMonthRange } from '../domain/month-range.js';
import { isMonth } from '../domain/months.js';
import { renderReportPdf } from '../reports/report-pdf.js';
import { findForeignAccounts } from '../reports/report-repository.js';
import { buildReport, buildReportWithTransactions } from '../reports/report-service.js';
import { cliContext, out, setExitCode, withStore, errOut } from './context.js';
import { resolveCustomerClient } from './customer-client.js';
import { registerReportVerify } from './report-verify.js';
import { signedPdf } from '../reports/report-signature.js';

interface ReportOptions {
  from?: string;
  to?: string;
  account: string[];
  currency: string;
  pdf?: string;
  client?: string;
}


function fail(message: string): void {
  errOut(`afford report: ${message}\n`);
  setExitCode(2);
}

export function registerReport(program: Command): void {
  const report = program
    .command('report')
    .argument('<customer_id>', 'the customer')
    .description('print a customer\'s affordability report as JSON, or write it as a PDF')
    .option('--from <YYYY-MM>', 'first month (default: 6 complete months ago)')
    .option('--to <YYYY-MM>', 'last month (default: last complete month)')
    .option('--account <account_id>', 'restrict to this account; repeat for more', collect, [])
    .option('--currency <code>', 'currency of the figures', 'GBP')
    .option('--pdf <file>', 'write the report as a PDF to this file instead of printing JSON')
    .option('--client <client_id>', "the customer's client (needed when two clients use the same customer id)")
    .action(async (customerId: string, opts: ReportOptions) => {
      // An empty name (an unset $OUT in --pdf "$OUT") printed the JSON instead, and said nothing.
      if (opts.pdf !== undefined && opts.pdf.trim() === '') return fail('--pdf must name a file');
      if ((opts.from && !isMonth(opts.from)) || (opts.to && !isMonth(opts.to))) return fail('--from and --to must be months written YYYY-MM');
      // The API's rule for missing ends and limits.
      const months = wholeMonthRange({ from: opts.from, to: opts.to });
      if (!months.ok) return fail(months.problem === 'from_after_to' ? '--from must not be after --to' : `a report covers at most ${MAX_RANGE_MONTHS} months`);
      const range = months.range;
      if (!isKnownCurrency(opts.currency)) return fail(`--currency ${opts.currency} is not an ISO 4217 currency code such as GBP`);
      const ctx = cliContext();
      const accountIds = opts.account.length ? opts.account : undefined;
      await withStore(ctx, async (store) => {
        const client = await resolveCustomerClient(store, customerId, opts.client);
        if (!client.ok) return fail(client.reason);
        const customer = { clientId: client.clientId, customerId };
        const foreign = accountIds ? await findForeignAccounts(store, customer, accountIds) : [];
        if (foreign.length) return fail(`customer ${customerId} has no account ${foreign.join(', ')}`);
        const request = { ...customer, range, accountIds, currency: opts.currency };
        const built = opts.pdf !== undefined ? await buildReportWithTransactions(store, request) : await buildReport(store, request).then((report) => report && { report, transactions: '[]' });
        if (!built) return fail(`no customer ${customerId}`);
        const { report } = built;
        if (opts.pdf !== undefined) {
          const pdf = await signedPdf(store, await renderReportPdf(built));
          const failed = await writeFile(opts.pdf, pdf).then(() => undefined, (err: Error) => err);
          if (failed) {
            // Failed once started (the report was built): 1, as every command's failure; 2 is a usage mistake.
            errOut(`afford report: cannot write ${opts.pdf}: ${failed.message}\n`);
            return setExitCode(1);
          }
          errOut(`wrote ${opts.pdf} (${range.from} to ${range.to})\n`);
        } else {
          // out(): standard output here, or the caller's when `afford serve` runs this for it.
          out(`${JSON.stringify(report, null, 2)}\n`);
        }
      });
    });
  registerReportVerify(report);
}

import type { Command } from 'commander';
import { writeFile } from 'node:fs/promises';
import { addMonths, isMonth, lastCompleteMonths, monthCount } from '../domain/months.js';
import { renderReportPdf } from '../reports/report-pdf.js';
import { findForeignAccounts } from '../reports/report-repository.js';
import { buildReport } from '../reports/report-service.js';
import { cliContext, out, setExitCode, withStore, errOut } from './context.js';
import { resolveCustomerClient } from './customer-client.js';

interface ReportOptions {
  from?: string;
  to?: string;
  account: string[];
  currency: string;
  pdf?: string;
  client?: string;
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function fail(message: string): void {
  errOut(`afford report: ${message}\n`);
  setExitCode(2);
}

export function registerReport(program: Command): void {
  program
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
      if ((opts.from && !isMonth(opts.from)) || (opts.to && !isMonth(opts.to))) return fail('--from and --to must be months written YYYY-MM');
      // As the API: six complete months unless told otherwise, ending at --to when only that is given.
      const to = opts.to ?? lastCompleteMonths(6).to;
      const range = { from: opts.from ?? addMonths(to, -5), to };
      if (monthCount(range) < 1) return fail('--from must not be after --to');
      if (monthCount(range) > 120) return fail('a report covers at most 120 months');
      if (!/^[A-Z]{3}$/.test(opts.currency)) return fail('--currency must be a 3-letter code such as GBP');
      const ctx = cliContext();
      const accountIds = opts.account.length ? opts.account : undefined;
      await withStore(ctx, async (store) => {
        const client = await resolveCustomerClient(store, customerId, opts.client);
        if (!client.ok) return fail(client.reason);
        const customer = { clientId: client.clientId, customerId };
        const foreign = accountIds ? await findForeignAccounts(store, customer, accountIds) : [];
        if (foreign.length) return fail(`customer ${customerId} has no account ${foreign.join(', ')}`);
        const report = await buildReport(store, { ...customer, range, accountIds, currency: opts.currency });
        if (!report) return fail(`no customer ${customerId}`);
        if (opts.pdf) {
          await writeFile(opts.pdf, await renderReportPdf(report));
          errOut(`wrote ${opts.pdf} (${range.from} to ${range.to})\n`);
        } else {
          // out(): standard output here, or the caller's when `afford serve` runs this for it.
          out(`${JSON.stringify(report, null, 2)}\n`);
        }
      });
    });
}

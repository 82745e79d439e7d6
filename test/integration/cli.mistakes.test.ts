import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { afford, ROOT, type CliRun } from '../helpers/cli.js';
import { fixturePath } from '../helpers/store.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-mistakes-'));
const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'export'), AFFORD_LOG_LEVEL: 'warn' };

/** One clear line on standard error, no stack frames, a non-zero exit. */
function expectOneLine(run: CliRun, says: RegExp): void {
  expect(run.code).not.toBe(0);
  expect(run.stderr).not.toContain('    at ');
  expect(run.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(says)]);
}

describe('ordinary mistakes at the command line', () => {
  beforeAll(async () => {
    const ingest = await afford(['ingest', 'file', fixturePath('hand-computed.ndjson')], env);
    expect(ingest.code).toBe(0);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('a missing input file', async () => {
    expectOneLine(await afford(['ingest', 'file', path.join(dir, 'no-such-events.ndjson')], env), /^afford ingest file: cannot read .*no-such-events\.ndjson: no such file$/);
    expectOneLine(await afford(['produce', path.join(dir, 'no-such-events.ndjson')], { ...env, AFFORD_KAFKA_BROKERS: '127.0.0.1:9' }), /^afford produce: cannot read .*: no such file$/);
    expectOneLine(await afford(['ingest', 'file', dir], env), /^afford ingest file: .* is a folder, not an NDJSON file$/);
    // Settings that only fail as the command runs: one line too, not a stack.
    expectOneLine(await afford(['clients', 'create', '--name', 'x'], { ...env, AFFORD_CLIENT_STATE_TOPIC: 'state' }), /^AFFORD_CLIENT_STATE_TOPIC is set: client-level changes go through the running service \(run afford serve first\)$/);
    const cron = await afford(['jobs', 'list'], { ...env, AFFORD_NIGHTLY_CRON: '99 99 * * *' });
    expect([cron.code, cron.stderr]).toEqual([1, 'invalid configuration:\n  AFFORD_NIGHTLY_CRON: must be a cron expression of five fields, such as 0 2 * * *\n']);
  });

  it('a device as the input file, which would never end', async () => {
    expectOneLine(await afford(['ingest', 'file', '/dev/zero'], env), /^afford ingest file: \/dev\/zero is a device, not a file$/);
    // A report to verify is read no further than a report can be: /dev/zero took memory without end.
    const verify = await afford(['report', 'verify', '/dev/zero'], env);
    expectOneLine(verify, /^afford report verify: cannot read \/dev\/zero: it is larger than 8 MiB$/);
    expect(verify.code).toBe(2);
  });

  it('a PDF path that cannot be written, or that names nothing', async () => {
    const pdf = path.join(dir, 'no-such-folder', 'report.pdf');
    const unwritable = await afford(['report', 'cust-1', '--from', '2024-01', '--to', '2024-03', '--pdf', pdf], env);
    expectOneLine(unwritable, /^afford report: cannot write .*report\.pdf: ENOENT/);
    // It failed once started: 1, not a usage mistake's 2.
    expect(unwritable.code).toBe(1);
    // An unset $OUT in --pdf "$OUT" printed the JSON report instead, and exited 0.
    const empty = await afford(['report', 'cust-1', '--from', '2024-01', '--to', '2024-03', '--pdf', ''], env);
    expectOneLine(empty, /^afford report: --pdf must name a file$/);
    expect([empty.code, empty.stdout]).toEqual([2, '']);
  });

  it('a negative or non-numeric count', async () => {
    expectOneLine(await afford(['generate', '--customers', '-5'], env), /^error: option '--customers <n>' argument '-5' is invalid\. It must be a whole number of at least 1\./);
    expectOneLine(await afford(['generate', '--months', 'twelve'], env), /argument 'twelve' is invalid/);
    expectOneLine(await afford(['ingest', 'file', 'x.ndjson', '--batch', '0'], env), /argument '0' is invalid/);
    // An option of one value given twice: the last was kept without a word (a webhook for the second client only).
    for (const args of [
      ['webhooks', 'add', '--client', 'client-a', '--client', 'client-b', '--url', 'https://hooks.example.com/h', '--events', 'customers.deleted'],
      ['dead-letters', '--source', 'file', '--source', 'kafka'],
      ['ingest', 'file', 'x.ndjson', '--batch', '10', '--batch=20'],
    ]) {
      const twice = await afford(args, env);
      expectOneLine(twice, /It is given twice: give it once\./);
      expect(twice.code, args.join(' ')).toBe(2);
    }
    expect((await afford(['webhooks', 'list'], env)).stdout).not.toContain('hooks.example.com');
    // As AFFORD_INGEST_BATCH_ROWS allows: a larger --batch was taken, and held the whole file in memory.
    expectOneLine(await afford(['ingest', 'file', 'x.ndjson', '--batch', '99999999999999'], env), /argument '99999999999999' is invalid\. It must be at most 1,000,000, as AFFORD_INGEST_BATCH_ROWS\./);
    expectOneLine(await afford(['dead-letters', '--limit', '-1'], env), /argument '-1' is invalid/);
    expectOneLine(await afford(['dead-letters', '--source', 'ftp'], env), /Allowed choices are file, kafka, http/);
    // Past what SQL's LIMIT takes: refused by the option, not a database error naming the SQL.
    expectOneLine(await afford(['dead-letters', '--limit', '2147483648'], env), /argument '2147483648' is invalid\. It must be at most 100,000\./);
    expectOneLine(await afford(['webhooks', 'deliveries', '--limit', '1e10'], env), /argument '1e10' is invalid/);
    // Months the generator's calendar cannot reach: one line, not a stack.
    expectOneLine(await afford(['generate', '--end-month', 'banana'], env), /argument 'banana' is invalid\. It must be a month written YYYY-MM/);
    expectOneLine(await afford(['generate', '--months', '100000'], env), /argument '100000' is invalid\. It must be at most 600\./);
    expectOneLine(await afford(['generate', '--end-month', '1970-01', '--months', '3'], env), /the months generated, 1969-11 to 1970-01, must lie between 1970-01 and this month/);
  });

  it('an unknown command', async () => {
    expectOneLine(await afford(['ingets'], env), /^error: unknown command 'ingets'/);
  });

  it('a reader that goes away (afford generate | head): quiet, no stack', async () => {
    const child = spawn(process.execPath, [path.join(ROOT, 'bin/afford.mjs'), 'generate', '--customers', '300'], { env, cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(141);
  });

  describe('a port already in use', () => {
    const busy = net.createServer();
    let port = 0;
    beforeAll(async () => {
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      port = (busy.address() as net.AddressInfo).port;
    });
    afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

    it('names the setting to change', async () => {
      const run = await afford(['serve'], { ...env, AFFORD_DB: path.join(dir, 'serve.duckdb'), AFFORD_HOST: '127.0.0.1', AFFORD_PORT: String(port) });
      expectOneLine(run, new RegExp(`^afford: port ${port} on 127\\.0\\.0\\.1 is already in use .*set AFFORD_PORT`));
    });
  });
});

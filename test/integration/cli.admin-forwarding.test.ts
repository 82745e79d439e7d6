import { spawn } from 'node:child_process';
import { chownSync, lstatSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { afford as runAfford, useServe } from '../helpers/cli.js';
import { fixturePath } from '../helpers/store.js';
import { adminSocketPath } from '../../src/cli/admin.js';

const service = useServe('afford-admin-', { AFFORD_JOBS_SLICE_CUSTOMERS: '50' });
const afford = (args: string[], extraEnv: Record<string, string> = {}) => runAfford(args, { ...service.env, ...extraEnv });

describe('CLI commands while afford serve holds the database', () => {
  it('runs them in the service, over the local admin socket', async () => {
    const ingest = await afford(['ingest', 'file', path.relative(process.cwd(), fixturePath('hand-computed.ndjson'))]);
    expect(ingest.stderr).not.toMatch(/lock/i);
    expect(ingest.stdout).toMatch(/^read 19, inserted 12, updated 2, deleted 1, unchanged 2, dead letters 2/);
    expect(ingest.code).toBe(0);

    const rebuild = await afford(['jobs', 'run', 'rebuild-monthly-totals']);
    expect(rebuild.stdout).toMatch(/rebuild-monthly-totals: succeeded .*no drift in 7 monthly total rows/);
    expect(rebuild.code).toBe(0);
  });

  it('answers a usage mistake to the caller and lives on, and finds a file given after options, from the caller\'s folder', async () => {
    const fixtures = path.dirname(fixturePath('hand-computed.ndjson'));
    for (const args of [['ingest', 'file', '--bogus', 'x.ndjson'], ['ingest', 'file', 'a.ndjson', 'b.ndjson'], ['report', 'verify']]) {
      const mistake = await runAfford(args, service.env, { cwd: fixtures });
      expect({ args, code: mistake.code }).toEqual({ args, code: 2 });
      expect(mistake.stderr.trim().split('\n')).toHaveLength(1);
    }
    // Given after an option that takes a value, the file is still the caller's: the service runs in another folder.
    const ingest = await runAfford(['ingest', 'file', '--batch', '10', 'hand-computed.ndjson'], service.env, { cwd: fixtures });
    expect({ code: ingest.code, err: ingest.stderr }).toEqual({ code: 0, err: '' });
    expect(ingest.stdout).toMatch(/^read 19,/);
    // Standard input is the caller's, which the service cannot read, and so is any stream named as a file.
    const stdin = await afford(['ingest', 'file', '-']);
    expect(stdin).toMatchObject({ code: 2, stderr: expect.stringContaining('standard input cannot be handed to the running afford service') });
    for (const stream of ['/dev/stdin', '/dev/fd/0', '/proc/self/fd/0']) {
      const refused = await afford(['ingest', 'file', stream]);
      expect({ stream, refused: refused.code !== 0, lines: refused.stderr.trim().split('\n').length }).toEqual({ stream, refused: true, lines: 1 });
      expect(refused.stderr).toMatch(/is a device, not a file|is not a regular file, which the running afford service cannot read/);
    }
    // And the service still answers.
    expect((await afford(['jobs', 'run', 'rebuild-monthly-totals'])).code).toBe(0);
  });

  it("keeps its socket its owner's, and hands no command to a socket that is neither this user's nor the store's owner's", async () => {
    const socketPath = adminSocketPath(service.env.AFFORD_DB as string);
    expect(lstatSync(socketPath).mode & 0o077).toBe(0);
    // Another user's socket at the same path (its name is known to every user): the command, secrets and all, stays.
    if (process.getuid?.() !== 0) throw new Error('this test makes the socket another user\'s with chown, which needs root');
    chownSync(socketPath, 65534, 65534);
    try {
      const refused = await afford(['webhooks', 'list']);
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toBe(`afford: ${socketPath} is not a socket of this user's or of the store's owner (it belongs to user 65534): the command is not handed to it`);
    } finally {
      chownSync(socketPath, 0, 0);
    }
    expect((await afford(['webhooks', 'list'])).code).toBe(0);
  });

  it('refuses commands that need their own process, with a clear message', async () => {
    const result = await afford(['ingest', 'kafka'], { AFFORD_KAFKA_BROKERS: '127.0.0.1:9' });
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/cannot run while afford serve holds the database/);
  });

  it('outlives admin clients that go away before their answer, or send something that is not a request', async () => {
    const socketPath = adminSocketPath(service.env.AFFORD_DB as string);
    const client = async (send: (socket: net.Socket) => void): Promise<string> =>
      new Promise((resolve) => {
        let answer = '';
        const socket = net.createConnection(socketPath, () => send(socket));
        socket.on('data', (d) => (answer += d.toString()));
        socket.on('error', () => resolve(answer));
        socket.on('close', () => resolve(answer));
      });
    // A command whose client is gone before the service answers (a CLI stopped with Ctrl-C).
    await client((s) => {
      s.end(JSON.stringify({ argv: ['jobs', 'run', 'rebuild-monthly-totals'] }));
      s.destroy();
    });
    // Text that is not a request, and JSON that is not one either.
    expect(JSON.parse(await client((s) => s.end('not json')))).toMatchObject({ error: 'bad admin request', exitCode: 2 });
    expect(JSON.parse(await client((s) => s.end('{}')))).toMatchObject({ error: 'bad admin request', exitCode: 2 });
    expect(JSON.parse(await client((s) => s.end('{"argv":[1,2]}')))).toMatchObject({ error: 'bad admin request', exitCode: 2 });
    // A request its command's own parser refuses (a subcommand's usage error): answered, not an exit of the service.
    const refused = JSON.parse(await client((s) => s.end(JSON.stringify({ argv: ['ingest', 'file', '/a.ndjson', '/b.ndjson'] }))));
    expect(refused).toMatchObject({ error: expect.stringContaining('too many arguments'), exitCode: 2 });
    // The rebuild above finishes in the service, which is still there for the next command.
    const after = await afford(['jobs', 'run', 'rebuild-monthly-totals']);
    expect(after.code, after.stderr).toBe(0);
  });

  it('stops a forwarded ingest at its next batch when its caller goes away (Ctrl-C), keeping the batches written', async () => {
    const big = path.join(service.dir, 'big.ndjson');
    const made = await afford(['generate', '--customers', '1200', '--months', '12', '--seed', '5', '--out', big]);
    expect(made.code, made.stderr).toBe(0);
    const logged = (text: string) => service.serve.log().split(text).length - 1;
    const before = logged('"msg":"admin command"');
    const caller = spawn(process.execPath, [path.join(process.cwd(), 'bin/afford.mjs'), 'ingest', 'file', big], { env: service.env, stdio: 'ignore' });
    const closed = new Promise((resolve) => caller.on('close', resolve));
    // Once the service has the command and has had time to write a batch or more, the caller dies as Ctrl-C ends it.
    const deadline = Date.now() + 30_000;
    while (logged('"msg":"admin command"') === before && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 1500));
    caller.kill('SIGKILL');
    await closed;
    while (!service.serve.log().includes('its caller went away') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(service.serve.log()).toContain('admin command: its caller went away; it stops at its next safe point, or does not start');

    // Run again to the end: it finds part of the file stored (unchanged) and writes the rest, so the first stopped part-way.
    const again = await afford(['ingest', 'file', big]);
    expect(again.code, again.stderr).toBe(0);
    const [, inserted, unchanged] = /inserted (\d+), updated \d+, deleted \d+, unchanged (\d+)/.exec(again.stdout) ?? [];
    expect(Number(inserted), again.stdout).toBeGreaterThan(0);
    expect(Number(unchanged), again.stdout).toBeGreaterThan(0);
  }, 120_000);

  it('stops a forwarded job run at its next chunk of customers when its caller goes away (Ctrl-C), and starts no job after it', async () => {
    // The store holds the 1,201 customers the tests before ingested: the reports take some seconds, in chunks of 50.
    const rebuilds = () => service.serve.log().split('\n').filter((l) => l.includes('"job":"rebuild-monthly-totals"') && l.includes('"msg":"job finished"')).length;
    const rebuilt = rebuilds();
    const caller = spawn(process.execPath, [path.join(process.cwd(), 'bin/afford.mjs'), 'jobs', 'run', 'all'], { env: service.env, stdio: 'ignore' });
    const closed = new Promise((resolve) => caller.on('close', resolve));
    const deadline = Date.now() + 60_000;
    // Once the rebuild is done and the reports have begun, the caller dies as Ctrl-C ends it.
    while (rebuilds() === rebuilt && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(rebuilds()).toBe(rebuilt + 1);
    caller.kill('SIGKILL');
    await closed;
    while (!service.serve.log().includes('"msg":"job stopped"') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    const stopped = service.serve.log().split('\n').find((l) => l.includes('"msg":"job stopped"')) ?? '';
    expect(JSON.parse(stopped)).toMatchObject({ job: 'affordability-reports', reason: expect.stringMatching(/^stopped after \d+ of \d+ customers: whoever asked for the run went away \(Ctrl-C\)$/) });
    const [, done, customers] = /after (\d+) of (\d+)/.exec(stopped) ?? [];
    expect(Number(done)).toBeLessThan(Number(customers));

    // The service lives on, and shows the run as failed; the export after it in the batch never started.
    const list = await afford(['jobs', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toMatch(/affordability-reports +nightly .* failed/);
    expect(list.stdout).toMatch(/export-parquet +nightly .* never run/);
    const exportRan = service.serve.log().split('\n').filter((l) => l.includes('"job":"export-parquet"') && /"msg":"job (step done|finished|failed)"/.test(l));
    expect(exportRan).toEqual([]);
  }, 120_000);

  it('stops cleanly on SIGTERM, even with an admin client connected and saying nothing', async () => {
    const idle = net.createConnection(adminSocketPath(service.env.AFFORD_DB as string));
    idle.on('error', () => undefined);
    await new Promise((resolve) => idle.once('connect', resolve));
    expect(await service.serve.stop()).toBe(0);
    idle.destroy();
  });
});

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';

/** The settings' one-line complaint about `values`, or undefined when they are taken. */
function complaint(values: Record<string, string>): string | undefined {
  try {
    loadConfig({}, values);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

describe('settings refuse what would misbehave later, naming the variable', () => {
  it('takes sizes DuckDB can work with, and refuses ones it cannot (or that name no setting when DuckDB refuses them)', () => {
    for (const name of ['AFFORD_DB_MEMORY_LIMIT', 'AFFORD_JOBS_DB_MEMORY_LIMIT']) {
      for (const bad of ['0MB', '1KB', '15MB', '99999999TB']) expect(complaint({ [name]: bad }), `${name}=${bad}`).toMatch(new RegExp(`${name}: must be from 16MB to 1000TB`));
      for (const good of ['16MB', '96MB', '1.5GB', '512MiB']) expect(complaint({ [name]: good }), `${name}=${good}`).toBeUndefined();
    }
    expect(complaint({ AFFORD_DB_CHECKPOINT_THRESHOLD: '99999999TB' })).toMatch(/AFFORD_DB_CHECKPOINT_THRESHOLD: must be from 1KB to 1000TB/);
    expect(complaint({ AFFORD_DB_CHECKPOINT_THRESHOLD: 'lots' })).toMatch(/AFFORD_DB_CHECKPOINT_THRESHOLD: must be a size such as/);
  });

  it('refuses a nightly schedule that is not a five-field cron expression', () => {
    for (const bad of ['not a cron', '99 99 * * *', '* * * * * *', '0 2 * *']) expect(complaint({ AFFORD_NIGHTLY_CRON: bad }), bad).toMatch(/AFFORD_NIGHTLY_CRON: must be a cron expression of five fields/);
    for (const good of ['0 2 * * *', '30 1 * * 1-5', '*/15 * * * *']) expect(complaint({ AFFORD_NIGHTLY_CRON: good }), good).toBeUndefined();
  });

  it('refuses Kafka brokers that are not host:port, and an empty topic list', () => {
    for (const bad of ['localhost', 'localhost:99999', 'kafka://h:9092', 'a:9092,b', 'h:0']) expect(complaint({ AFFORD_KAFKA_BROKERS: bad }), bad).toMatch(/AFFORD_KAFKA_BROKERS: must be host:port entries/);
    expect(complaint({ AFFORD_KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9093' })).toBeUndefined();
    expect(loadConfig({}, { AFFORD_KAFKA_BROKERS: 'kafka-1:9092, kafka-2:9093' }).AFFORD_KAFKA_BROKERS).toEqual(['kafka-1:9092', 'kafka-2:9093']);
    expect(complaint({ AFFORD_KAFKA_TOPICS: ' , ' })).toMatch(/AFFORD_KAFKA_TOPICS: must name at least one topic/);
  });

  it('takes a store that is a file on this machine, outside the folders the jobs write and the kernel’s', () => {
    const cases: [string, RegExp][] = [
      [':memory:', /AFFORD_DB: must be a file: :memory: keeps nothing/],
      ['   ', /AFFORD_DB: must not be blank/],
      ['s3://bucket/afford.duckdb', /AFFORD_DB: must be a path on this machine/],
      ['md:afford', /AFFORD_DB: must be a path on this machine/],
      ['/proc/self/afford.duckdb', /AFFORD_DB: must not be under \/proc/],
      ['data/store/', /AFFORD_DB: must name a file, not a folder/],
      ['.', /AFFORD_DB: must name a file, not a folder/],
      ['data/..', /AFFORD_DB: must name a file, not a folder/],
    ];
    for (const [value, why] of cases) expect(complaint({ AFFORD_DB: value }), value).toMatch(why);
    expect(loadConfig({}, { AFFORD_DB: '  data/afford.duckdb ' }).AFFORD_DB).toBe('data/afford.duckdb');

    // The export replaces what is in its folder, the snapshot's name included: a store there was overwritten.
    expect(complaint({ AFFORD_DB: '/srv/afford/export/afford-snapshot.duckdb', AFFORD_EXPORT_DIR: '/srv/afford/export' })).toMatch(/AFFORD_DB: must not be inside AFFORD_EXPORT_DIR/);
    expect(complaint({ AFFORD_DB: '/srv/afford/pdfs/a.duckdb', AFFORD_REPORTS_DIR: '/srv/afford/pdfs/' })).toMatch(/AFFORD_DB: must not be inside AFFORD_REPORTS_DIR/);
    expect(complaint({ AFFORD_DB: '/srv/afford/afford.duckdb', AFFORD_EXPORT_DIR: '/srv/afford/export', AFFORD_REPORTS_DIR: '/srv/afford/pdfs' })).toBeUndefined();
    // A sibling whose name starts the same is not inside.
    expect(complaint({ AFFORD_DB: '/srv/afford/export-old/afford.duckdb', AFFORD_EXPORT_DIR: '/srv/afford/export' })).toBeUndefined();
    expect(complaint({ AFFORD_EXPORT_DIR: '/proc/x' })).toMatch(/AFFORD_EXPORT_DIR: must not be under \/proc/);
    // The root holds everything: a store anywhere is inside it.
    expect(complaint({ AFFORD_DB: 'afford.duckdb', AFFORD_EXPORT_DIR: '/' })).toMatch(/AFFORD_DB: must not be inside AFFORD_EXPORT_DIR/);
    // A relative store inside an absolute export folder, and the other way round.
    expect(complaint({ AFFORD_DB: 'export/afford.duckdb', AFFORD_EXPORT_DIR: process.cwd() })).toMatch(/AFFORD_DB: must not be inside AFFORD_EXPORT_DIR/);
    expect(complaint({ AFFORD_DB: `${process.cwd()}/out/afford.duckdb`, AFFORD_EXPORT_DIR: 'out' })).toMatch(/AFFORD_DB: must not be inside AFFORD_EXPORT_DIR/);
    // A setting's name mistyped was ignored, and the setting it meant kept its default without a word.
    expect(() => loadConfig({ AFFORD_DB_MEMORY_LIMT: '1KB' })).toThrow(/AFFORD_DB_MEMORY_LIMT: is no setting of afford's; did you mean AFFORD_DB_MEMORY_LIMIT\?/);
    expect(() => loadConfig({ AFFORD_PROT: '8080', AFFORD_LOG_LEVL: 'info' })).toThrow(/AFFORD_PROT: .*did you mean AFFORD_PORT\?\n {2}AFFORD_LOG_LEVL: .*did you mean AFFORD_LOG_LEVEL\?/);
    // Names far from every setting are someone else's (a webhook receiver's, in the README's example).
    expect(loadConfig({ AFFORD_WEBHOOK_SECRET: 'x', AFFORD_PORT: '8080' }).AFFORD_PORT).toBe(8080);
    // Settings that passed the start and failed later, or failed without naming themselves.
    const file = path.join(tmpdir(), `afford-config-a-file-${process.pid}`);
    writeFileSync(file, 'x');
    try {
      expect(complaint({ AFFORD_EXPORT_DIR: file })).toMatch(/AFFORD_EXPORT_DIR: must be a folder, not a file/);
      expect(complaint({ AFFORD_REPORTS_DIR: file })).toMatch(/AFFORD_REPORTS_DIR: must be a folder, not a file/);
    } finally {
      rmSync(file, { force: true });
    }
    expect(complaint({ AFFORD_HOST: ' ' })).toMatch(/AFFORD_HOST: must be a host name or an address, with no space/);
    expect(complaint({ AFFORD_HOST: 'host name' })).toMatch(/AFFORD_HOST: must be a host name or an address/);
    expect(complaint({ AFFORD_TOKEN_SECRET: ' '.repeat(40) })).toMatch(/AFFORD_TOKEN_SECRET: must be at least 32 characters besides spaces/);
    // A folder that exists is a folder (one of its own: the default store, relative to the folder the tests run in,
    // may be inside the temporary folder itself).
    const folder = mkdtempSync(path.join(tmpdir(), 'afford-config-folder-'));
    try {
      expect(complaint({ AFFORD_HOST: '::', AFFORD_TOKEN_SECRET: 'x'.repeat(32), AFFORD_EXPORT_DIR: folder })).toBeUndefined();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
    // Through a link: a store outside the folder as written, but inside it where the link leads.
    const dir = mkdtempSync(path.join(tmpdir(), 'afford-config-links-'));
    try {
      mkdirSync(path.join(dir, 'export'));
      symlinkSync(path.join(dir, 'export'), path.join(dir, 'dblink'));
      symlinkSync(dir, path.join(dir, 'exportlink'));
      expect(complaint({ AFFORD_DB: path.join(dir, 'dblink', 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'export') })).toMatch(/AFFORD_DB: must not be inside AFFORD_EXPORT_DIR/);
      expect(complaint({ AFFORD_DB: path.join(dir, 'dblink', 'sub', 'afford.duckdb'), AFFORD_REPORTS_DIR: path.join(dir, 'export') })).toMatch(/AFFORD_DB: must not be inside AFFORD_REPORTS_DIR/);
      expect(complaint({ AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'exportlink') })).toMatch(/AFFORD_DB: must not be inside AFFORD_EXPORT_DIR/);
      expect(complaint({ AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'export') })).toBeUndefined();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

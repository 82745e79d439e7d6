import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportParquetJob } from '../../jobs/export-parquet.js';
import { SNAPSHOT_FILE } from '../../jobs/export-snapshot.js';
import { runJob } from '../../jobs/runner.js';
import { SigningKeysRepository } from '../../src/api/repositories/signing-keys.repository.js';
import { ClientsService } from '../../src/clients/clients.service.js';
import { loadConfig } from '../../src/config.js';
import { ClientsRepository } from '../../src/clients/clients.repository.js';
import { queryRows } from '../../src/db/rows.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { WebhookSigningKeys } from '../../src/webhooks/signing-keys.js';
import { validateSubscription } from '../../src/webhooks/subscription-input.js';
import { SubscriptionsRepository } from '../../src/webhooks/subscriptions.repository.js';
import { fixturePath, rows, silentLogger, tempStore } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

type Ctx = Awaited<ReturnType<typeof tempStore>>;

const CUSTOMER_SECRET = 'customer-secret-3b7c1f0e-in-an-event';
const DEAD_LETTER_SECRET = 'customer-secret-9d2e4a66-in-a-bad-line';
const BROKEN_LINE_SECRET = 'customer-secret-51aa07c3-in-a-broken-line';
const OLD_DEAD_LETTER_SECRET = 'customer-secret-e0c4b812-stored-before-redaction';
const UNQUOTED_SECRET = 'bare7q2x9w-secret-written-without-quotes';
const LOOSE_SECRET = 'customer-secret-6c1d93f0-in-single-quotes';
const OLD_LOOSE_SECRET = 'customer-secret-a8e27b54-stored-in-an-array';
// An event serialised twice (a producer's slip): JSON whose value is the event as text.
const DOUBLE_SECRET = 'customer-secret-3f5e8a21-serialised-twice';
const OLD_DOUBLE_SECRET = 'customer-secret-0d7c6b19-stored-serialised-twice';
// Under a key named like a private key, stored before ingest redacted such keys.
const OLD_PRIVATE_KEY = 'private-key-5b1e77c2-stored-before-its-name-counted';
const WEBHOOK_SECRET = 'webhook-secret-7f6e5d4c3b2a19087f6e5d4c3b2a1908';
const HEADER_VALUE = 'Bearer header-value-2c9d8e7f6a5b4c3d';

/** Every cell of a relation as text: every column, whatever its type, cast to VARCHAR. */
async function cells(conn: DuckDBConnection, relation: string, params?: Record<string, string>): Promise<string[]> {
  const found = await rowsAs<Record<string, string | null>>(conn, `SELECT CAST(COLUMNS(*) AS VARCHAR) FROM ${relation}`, params);
  return found.flatMap((row) => Object.values(row).filter((v): v is string => typeof v === 'string'));
}

/** Where each secret appears among the tables of a database ('main' or an attached one). */
async function scanDatabase(conn: DuckDBConnection, database: string, secrets: readonly string[]): Promise<Map<string, string[]>> {
  const tables = await rowsAs<{ table_name: string }>(conn,
    'SELECT table_name FROM duckdb_tables() WHERE database_name = $db AND NOT temporary ORDER BY table_name', { db: database });
  expect(tables.length).toBeGreaterThan(0);
  const hits = new Map<string, string[]>();
  for (const { table_name } of tables) {
    const text = await cells(conn, `"${database}"."main"."${table_name}"`);
    for (const s of secrets) if (text.some((t) => t.includes(s))) hits.set(s, [...(hits.get(s) ?? []), table_name]);
  }
  return hits;
}

function parquetFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => f.endsWith('.parquet') && statSync(f).isFile());
}

describe('what the export gives data teams', () => {
  let ctx: Ctx;
  let exportDir: string;
  let clientSecret: string;
  let tokenKey: string;
  let secrets: string[];

  beforeAll(async () => {
    ctx = await tempStore();
    exportDir = path.join(ctx.dir, 'export');
    const config = loadConfig({}, { AFFORD_DB: ctx.store.path, AFFORD_EXPORT_DIR: exportDir });

    clientSecret = (await new ClientsService(new ClientsRepository(ctx.store)).create('Lender A', 'client-a')).client_secret;
    tokenKey = await new SigningKeysRepository(ctx.store).getOrCreate();
    await new WebhookSigningKeys(ctx.store).signingKey();
    await new SubscriptionsRepository(ctx.store).add(validateSubscription({
      clientId: 'client-a', url: 'https://lender.example/hooks', events: ['customers.deleted'],
      headers: { Authorization: HEADER_VALUE }, secret: WEBHOOK_SECRET,
    }));

    // A customer with a secret, a line that becomes a dead letter with another, and a line that is not JSON with a third.
    await ingestFile(ctx.pipeline, fixturePath('hand-computed.ndjson'), { batchRows: 100 });
    const transaction = JSON.parse(readFileSync(fixturePath('hand-computed.ndjson'), 'utf8').split('\n')[2]!) as Record<string, unknown>;
    const file = path.join(ctx.dir, 'events.ndjson');
    writeFileSync(file, [
      JSON.stringify({ ...transaction, event_id: 's-1', customer_id: 'cust-s', customer_secret: CUSTOMER_SECRET }),
      JSON.stringify({ ...transaction, event_id: 's-2', customer_id: 'cust-t', customer_secret: DEAD_LETTER_SECRET, occurred_at: 'not a time' }),
      `{"event_id":"s-3","customer_id":"cust-u","customer_secret":"${BROKEN_LINE_SECRET}","data":{`,
      `{"event_id":"s-4","customer_secret":${UNQUOTED_SECRET}}`,
      `{'event_id':'s-5','customer_secret':'${LOOSE_SECRET}'}`,
      JSON.stringify(JSON.stringify({ ...transaction, event_id: 's-6', customer_id: 'cust-v', customer_secret: DOUBLE_SECRET })),
    ].join('\n'));
    const summary = await ingestFile(ctx.pipeline, file, { batchRows: 100 });
    expect(summary).toMatchObject({ read: 6, inserted: 1, deadLetters: 5 });
    // A dead letter stored by an earlier version, before ingest redacted them.
    const oldRaw = `{"customer_secret": "${OLD_DEAD_LETTER_SECRET}", "access_token": ${OLD_DEAD_LETTER_SECRET}-bare}`;
    const oldReason = `invalid JSON: Unexpected token '${OLD_DEAD_LETTER_SECRET[0]!}', ..."_token": ${OLD_DEAD_LETTER_SECRET.slice(0, 10)}"... is not valid JSON`;
    await ctx.store.write((conn) => conn.run(`INSERT INTO dead_letters (source, source_ref, raw, reason, dedupe_key)
      VALUES ('file', 'old.ndjson', $raw, $reason, 'old-1')`, { raw: oldRaw, reason: oldReason }));
    // And one whose secret is in an array, on a line that is not JSON: where its value ends cannot be known.
    await ctx.store.write((conn) => conn.run(`INSERT INTO dead_letters (source, source_ref, raw, reason, dedupe_key)
      VALUES ('file', 'old-loose.ndjson', $raw, 'invalid JSON', 'old-2')`, { raw: `{"customer_secret":["${OLD_LOOSE_SECRET}"],}` }));
    // And one serialised twice, whose key's quotes are escaped.
    await ctx.store.write((conn) => conn.run(`INSERT INTO dead_letters (source, source_ref, raw, reason, dedupe_key)
      VALUES ('file', 'old-double.ndjson', $raw, 'not an object', 'old-3')`, { raw: JSON.stringify(JSON.stringify({ event_id: 'o-3', customer_secret: OLD_DOUBLE_SECRET })) }));

    await ctx.store.write((conn) => conn.run(`INSERT INTO dead_letters (source, source_ref, raw, reason, dedupe_key)
      VALUES ('file', 'old-key.ndjson', $raw, 'not an event', 'old-4')`, { raw: JSON.stringify({ event_id: 'o-4', data: { signing_private_key: OLD_PRIVATE_KEY } }) }));

    // What the live file holds only as hashes or keys counts as a secret too.
    const [hashes] = await rows<{ customer: string; client: string; key: string }>(ctx.store, `SELECT
      (SELECT secret_hash FROM customers WHERE customer_id = 'cust-s') AS customer,
      (SELECT secret_hash FROM api_clients WHERE client_id = 'client-a') AS client,
      (SELECT private_jwk::JSON->>'d' FROM webhook_signing_keys) AS key`);
    // The first 10 characters too, of the secret that a JSON parse error would quote a piece of.
    secrets = [clientSecret, tokenKey, CUSTOMER_SECRET, DEAD_LETTER_SECRET, BROKEN_LINE_SECRET, OLD_DEAD_LETTER_SECRET,
      WEBHOOK_SECRET, HEADER_VALUE, hashes!.customer, hashes!.client, hashes!.key, UNQUOTED_SECRET.slice(0, 10), OLD_DEAD_LETTER_SECRET.slice(0, 10),
      LOOSE_SECRET, OLD_LOOSE_SECRET, DOUBLE_SECRET, OLD_DOUBLE_SECRET, OLD_PRIVATE_KEY];
    for (const s of secrets) expect(s.length).toBeGreaterThanOrEqual(10);

    const run = await runJob(exportParquetJob, { store: ctx.store, config, logger: silentLogger }, 'cli');
    expect(run.status, run.message).toBe('succeeded');
  });
  afterAll(async () => ctx.cleanup());

  it('the scan finds the stored secrets in the live file, and never a secret that ingest must not keep', async () => {
    const hits = await ctx.store.read((conn) => scanDatabase(conn, 'afford', secrets));
    expect(Object.fromEntries(hits)).toEqual({
      [tokenKey]: ['api_signing_keys'],
      [WEBHOOK_SECRET]: ['webhook_subscriptions'],
      [HEADER_VALUE]: ['webhook_subscriptions'],
      [OLD_DEAD_LETTER_SECRET]: ['dead_letters'],
      [OLD_DEAD_LETTER_SECRET.slice(0, 10)]: ['dead_letters'],
      [OLD_LOOSE_SECRET]: ['dead_letters'],
      [OLD_DOUBLE_SECRET]: ['dead_letters'],
      [OLD_PRIVATE_KEY]: ['dead_letters'],
      [secrets[8]!]: ['customers'],
      [secrets[9]!]: ['api_clients'],
      [secrets[10]!]: ['webhook_signing_keys'],
    });
    // The dead letters are there, with their secrets redacted and the rest as read.
    const letters = await rows<{ raw: string }>(ctx.store, "SELECT raw FROM dead_letters WHERE source_ref LIKE '%events.ndjson' ORDER BY line_number");
    expect(letters.map((l) => l.raw)).toEqual([
      expect.stringContaining('"customer_secret":"[redacted]"'),
      '{"event_id":"s-3","customer_id":"cust-u","customer_secret":"[redacted]","data":{',
      '{"event_id":"s-4","customer_secret":"[redacted]"}',
      '[redacted]',
      expect.stringContaining('\\"customer_secret\\":\\"[redacted]\\"'),
    ]);
    expect(letters[0]!.raw).toContain('"occurred_at":"not a time"');
  });

  it('the snapshot holds the data tables and not one secret in any column', async () => {
    const instance = await DuckDBInstance.create(path.join(exportDir, SNAPSHOT_FILE), { access_mode: 'READ_ONLY' });
    const conn = await instance.connect();
    try {
      const [snapshotDb] = await rowsAs<{ db: string }>(conn, 'SELECT current_database() AS db');
      // Tables and views: the reports are a view over their parts, as in the store.
      const tables = (await rowsAs<{ t: string }>(conn, 'SELECT table_name AS t FROM information_schema.tables ORDER BY 1')).map((r) => r.t);
      expect(tables).toEqual(expect.arrayContaining(['customers', 'transactions', 'accounts', 'dead_letters', 'monthly_category_totals', 'affordability_reports']));
      for (const credential of ['api_clients', 'api_signing_keys', 'webhook_signing_keys', 'webhook_subscriptions', 'report_signing_keys']) expect(tables).not.toContain(credential);
      const columns = (await rowsAs<{ c: string }>(conn, "SELECT column_name AS c FROM duckdb_columns() WHERE table_name = 'customers'")).map((r) => r.c);
      expect(columns).not.toContain('secret_hash');
      // Runs without their detail, which names the customers a run failed for, who may be deleted since.
      const runColumns = (await rowsAs<{ c: string }>(conn, "SELECT column_name AS c FROM duckdb_columns() WHERE table_name = 'job_runs' ORDER BY column_index")).map((r) => r.c);
      expect(runColumns).toContain('status');
      expect(runColumns).not.toContain('detail');
      expect(await queryRows(conn, "SELECT hosted, count(*)::INTEGER AS n FROM transactions JOIN customers USING (customer_id) WHERE customer_id = 'cust-s' GROUP BY ALL"))
        .toEqual([{ hosted: false, n: 1 }]);
      expect(await queryRows(conn, "SELECT count(*)::INTEGER AS n FROM dead_letters WHERE source_ref LIKE '%events.ndjson' OR source_ref LIKE 'old%.ndjson'"))
        .toEqual([{ n: 9 }]);
      expect(await queryRows(conn, "SELECT raw FROM dead_letters WHERE source_ref = 'old-key.ndjson'")).toEqual([{ raw: '{"event_id":"o-4","data":{"signing_private_key":"[redacted]"}}' }]);
      expect(await queryRows(conn, "SELECT raw FROM dead_letters WHERE source_ref = 'old-loose.ndjson'")).toEqual([{ raw: '[redacted]' }]);
      expect(await queryRows(conn, "SELECT raw FROM dead_letters WHERE source_ref = 'old-double.ndjson'")).toEqual([{ raw: '[redacted]' }]);

      // A dead letter stored before ingest redacted them is redacted on its way out.
      expect(await queryRows(conn, "SELECT raw, reason FROM dead_letters WHERE source_ref = 'old.ndjson'")).toEqual([{
        raw: '{"customer_secret": "[redacted]", "access_token": "[redacted]"}',
        reason: "invalid JSON: Unexpected token 'c' is not valid JSON",
      }]);

      const hits = await scanDatabase(conn, snapshotDb!.db, secrets);
      expect(Object.fromEntries(hits)).toEqual({});
    } finally {
      conn.closeSync();
      instance.closeSync();
    }
  });

  it('no Parquet file holds a secret in any column', async () => {
    const files = parquetFiles(exportDir);
    expect(files.length).toBeGreaterThan(0);
    const conn = await (await DuckDBInstance.create(':memory:')).connect();
    try {
      for (const file of files) {
        const text = await cells(conn, 'read_parquet($file)', { file });
        expect(text.length, file).toBeGreaterThan(0);
        for (const s of secrets) expect(text.filter((t) => t.includes(s)), `${s} in ${file}`).toEqual([]);
      }
    } finally {
      conn.closeSync();
    }
  });
});

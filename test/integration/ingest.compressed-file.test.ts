import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { Store } from '../../src/db/store.js';
import { ingestFile } from '../../src/ingest/file-source.js';
import { buildPipeline } from '../../src/app/pipeline.js';
import { generated, referenceSnapshot, snapshot, withStore } from '../helpers/kafka-data.js';
import { silentLogger } from '../helpers/store.js';
import { rowsAs } from '../helpers/rows.js';

/**
 * NDJSON as data teams ship it: gzip (`.ndjson.gz`, sometimes several
 * members one after another) or ZStandard, told by its first bytes, from a
 * file or through standard input.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'afford-compressed-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function zstd(input: Buffer): Buffer {
  try {
    return execFileSync('zstd', ['-q', '-c'], { input, maxBuffer: 1 << 30 });
  } catch (err) {
    throw new Error(`this test needs the zstd command (run test/install-tools.sh): ${(err as Error).message}`, { cause: err });
  }
}

const { lines } = generated({ customers: 6, months: 3, seed: 31, faults: true, endMonth: '2024-06' });
const plain = Buffer.from(lines.map((l) => `${l}\n`).join(''));
const half = plain.indexOf('\n', plain.length >> 1) + 1;

describe('ingest file of a compressed file', () => {
  it('stores from gzip, several gzip members and ZStandard exactly what the plain file gives, dead letters and their line numbers included', async () => {
    const reference = await referenceSnapshot(dir, lines);
    expect(reference.deadLetters.length).toBeGreaterThan(0);
    const deadLines = async (store: Store) => store.read((c) => rowsAs<{ line_number: number }>(c, 'SELECT line_number FROM dead_letters ORDER BY 1'));
    const plainFile = path.join(dir, 'plain.ndjson');
    writeFileSync(plainFile, plain);
    const expectedLines = await withStore(path.join(dir, 'plain.duckdb'), async (store) => {
      await ingestFile(buildPipeline(store, silentLogger), plainFile, { batchRows: 100 });
      return deadLines(store);
    });
    const inputs = {
      'events.ndjson.gz': gzipSync(plain),
      'members.ndjson.gz': Buffer.concat([gzipSync(plain.subarray(0, half)), gzipSync(plain.subarray(half))]),
      // Named for neither: the first bytes tell.
      'events.zst.data': zstd(plain),
    };
    for (const [name, bytes] of Object.entries(inputs)) {
      const file = path.join(dir, name);
      writeFileSync(file, bytes);
      await withStore(path.join(dir, `${name}.duckdb`), async (store) => {
        const summary = await ingestFile(buildPipeline(store, silentLogger), file, { batchRows: 100 });
        expect(summary.read, name).toBe(lines.length);
        expect(await snapshot(store), name).toEqual(reference);
        expect(await deadLines(store), name).toEqual(expectedLines);
      });
    }
  });

  it('writes every whole line read before a damaged stream breaks off, then fails: what was read before it stands, as its error says', async () => {
    const gzip = gzipSync(plain);
    const zst = zstd(plain);
    for (const [name, damaged] of [
      ['cut.ndjson.gz', gzip.subarray(0, gzip.length >> 1)],
      ['cut.zst', zst.subarray(0, zst.length >> 1)],
    ] as const) {
      // For gzip, the whole lines the damaged stream still gives, decompressed as far as it goes.
      const readable = name.endsWith('.gz') ? gunzipSync(damaged, { finishFlush: constants.Z_SYNC_FLUSH }) : undefined;
      const file = path.join(dir, name);
      writeFileSync(file, damaged);
      await withStore(path.join(dir, `${name}.duckdb`), async (store) => {
        // One batch would hold the whole file: none of it had been written when the damage was met.
        const ingest = ingestFile(buildPipeline(store, silentLogger), file, { batchRows: 25_000 });
        await expect(ingest).rejects.toThrow(/compressed input cannot be read on .*: what was read before it stands/);
        const [stored] = await store.read((c) => rowsAs<{ n: number }>(c, 'SELECT ((SELECT count(*) FROM transactions) + (SELECT count(*) FROM dead_letters) + (SELECT count(*) FROM accounts))::INTEGER AS n'));
        expect(stored?.n, name).toBeGreaterThan(0);
        if (readable !== undefined) {
          // As much as the same whole lines give from a plain file.
          const whole = plain.subarray(0, readable.lastIndexOf('\n') + 1);
          const prefix = path.join(dir, `${name}.prefix.ndjson`);
          writeFileSync(prefix, whole);
          const expected = await withStore(path.join(dir, `${name}.prefix.duckdb`), async (s) => {
            const summary = await ingestFile(buildPipeline(s, silentLogger), prefix, { batchRows: 25_000 });
            expect(summary.read).toBe(whole.toString('utf8').split('\n').length - 1);
            return snapshot(s);
          });
          expect(await snapshot(store), name).toEqual(expected);
        }
      });
    }
  });

  it('reads gzip from standard input, and refuses a compression it does not read, or a damaged one, in one line', () => {
    const run = (input: Buffer, db: string) =>
      spawnSync(process.execPath, ['bin/afford.mjs', 'ingest', 'file', '-'], { cwd: ROOT, input, encoding: 'utf8', env: { ...process.env, AFFORD_DB: path.join(dir, db), AFFORD_LOG_LEVEL: 'warn' } });
    const piped = run(gzipSync(plain), 'stdin.duckdb');
    expect(piped.stderr).toBe('');
    expect(piped.status).toBe(0);
    expect(piped.stdout).toContain(`read ${lines.length},`);

    const xz = run(Buffer.concat([Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00]), Buffer.alloc(64)]), 'xz.duckdb');
    expect(xz.status).toBe(1);
    expect(xz.stderr.trim()).toBe('the input is compressed with xz, which afford does not read: decompress it first (gzip and ZStandard are read as they are)');
    const cut = run(gzipSync(plain).subarray(0, 2000), 'cut.duckdb');
    expect(cut.status).toBe(1);
    expect(cut.stderr.trim()).toMatch(/^the gzip-compressed input cannot be read on \(.+\): what was read before it stands$/);
    // Under node --jitless there is no WebAssembly to hash with: a ZStandard input is read unchecked, not refused with a stack.
    const few = plain.subarray(0, plain.indexOf('\n', 20_000) + 1);
    const jitless = spawnSync(process.execPath, ['--jitless', 'bin/afford.mjs', 'ingest', 'file', '-'], {
      cwd: ROOT, input: zstd(few), encoding: 'utf8', env: { ...process.env, AFFORD_DB: path.join(dir, 'jitless.duckdb'), AFFORD_LOG_LEVEL: 'warn' },
    });
    expect([jitless.status, jitless.stdout]).toEqual([0, expect.stringContaining(`read ${few.toString('utf8').split('\n').length - 1},`)]);
    // A ZStandard file whose content no longer matches its frame's checksum (zstd writes one) fails the same way.
    const zst = zstd(plain);
    zst.writeUInt8(zst.readUInt8(zst.length - 2) ^ 0x01, zst.length - 2);
    const damaged = run(zst, 'checksum.duckdb');
    expect(damaged.status).toBe(1);
    expect(damaged.stderr.trim()).toMatch(/^the ZStandard-compressed input cannot be read on \(a frame's content does not match its checksum: the data is damaged\): what was read before it stands$/);
  });
});

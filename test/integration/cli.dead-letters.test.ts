import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { afford } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-dead-letters-'));
const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_EXPORT_DIR: path.join(dir, 'export') };
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('afford dead-letters', () => {
  it('lists the newest first by number, past nine of them (#10 before #9, as the ids are numbers)', async () => {
    const file = path.join(dir, 'bad.ndjson');
    writeFileSync(file, Array.from({ length: 12 }, (_, i) => `not an event ${i + 1}\n`).join(''));
    const ingest = await afford(['ingest', 'file', file], env);
    expect(ingest.code, ingest.stderr).toBe(0);

    const json = await afford(['dead-letters', '--limit', '3', '--json'], env);
    const letters = JSON.parse(json.stdout) as { dead_letter_id: string }[];
    expect(letters.map((d) => d.dead_letter_id)).toEqual(['12', '11', '10']);

    const text = await afford(['dead-letters'], env);
    expect(text.stdout.split('\n').filter((line) => line.startsWith('#')).map((line) => line.split(' ')[0])).toEqual(['#12', '#11', '#10', '#9', '#8', '#7', '#6', '#5', '#4', '#3', '#2', '#1']);
  });
});

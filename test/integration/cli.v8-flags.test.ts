import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../src/config.js';
import { afford } from '../helpers/cli.js';

const dir = mkdtempSync(path.join(tmpdir(), 'afford-v8-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, AFFORD_DB: path.join(dir, 'afford.duckdb'), AFFORD_LOG_LEVEL: 'warn' };

// V8 prints a line per collection on standard output under --trace-gc: the one flag whose effect a run shows.
const GC_LINE = /\b(Scavenge|Mark-Compact|Mark-Sweep)\b/;

describe('AFFORD_V8_FLAGS', () => {
  it('reaches V8 in the afford process, from its start', async () => {
    const traced = await afford(['--help'], { ...env, AFFORD_V8_FLAGS: '--trace-gc' });
    expect(traced.code).toBe(0);
    expect(traced.stdout).toMatch(GC_LINE);
    expect(traced.stdout).toContain('Usage: afford');
  });

  it('by default limits the heap growth, and traces nothing', async () => {
    expect(SETTINGS.find((s) => s.name === 'AFFORD_V8_FLAGS')?.default).toBe('--heap-growing-percent=50');
    const plain = await afford(['--help'], { ...env, AFFORD_V8_FLAGS: '' });
    expect(plain.code).toBe(0);
    expect(plain.stdout).not.toMatch(GC_LINE);
  });

  it('refuses a flag V8 does not have, or a value of the wrong kind, rather than run without it', async () => {
    for (const [flags, problem] of [
      ['--heap-growing-percnt=50', '--heap-growing-percnt is not a flag of this Node'],
      ['--trace-gc=yes', '--trace-gc is on or off, and takes no value'],
      ['--heap-growing-percent=lots', "--heap-growing-percent takes a whole number, not 'lots'"],
      ['--max-lazy=1', '--max-lazy is on or off, and takes no value'],
      ['--stack-size=1.5', "--stack-size takes a whole number, not '1.5'"],
      ['--max-semi-space-size=-1', "--max-semi-space-size takes a whole number of 0 or more, not '-1'"],
      ['--heap-growing-percent', '--heap-growing-percent takes a value: --heap-growing-percent=...'],
    ]) {
      const run = await afford(['jobs', 'list'], { ...env, AFFORD_V8_FLAGS: flags });
      expect([run.code, run.stderr], flags).toEqual([1, expect.stringContaining(`AFFORD_V8_FLAGS: must be V8 flags: ${problem}`)]);
    }
    // Nothing of V8's own before the refusal: the value was applied before it was refused, and V8 printed its lines.
    const bad = await afford(['jobs', 'list'], { ...env, AFFORD_V8_FLAGS: '--heap-growing-percent=lots' });
    expect(bad.stderr).not.toMatch(/illegal value|Try --help/);
    // Flags V8 takes only as the process starts: --help printed V8's help and exited 0 without running the command,
    // and a collector on one thread stopped the process in V8 (a fatal error, exit 133).
    for (const [flags, problem] of [
      ['--help', "--help prints V8's help and ends the process"],
      ['--single-threaded', '--single-threaded must be given to node as it starts'],
      ['--single-threaded-gc', '--single-threaded-gc must be given to node as it starts'],
      ['--predictable', '--predictable must be given to node as it starts'],
      // Set in a running process, --jitless stopped V8 (exit 133) at the WebAssembly a ZStandard input's checksums compile.
      ['--jitless', '--jitless must be given to node as it starts'],
    ]) {
      const run = await afford(['jobs', 'list'], { ...env, AFFORD_V8_FLAGS: flags });
      expect([run.code, run.stdout, run.stderr], flags).toEqual([1, '', expect.stringContaining(`AFFORD_V8_FLAGS: must be V8 flags: ${problem}`)]);
    }
    // Written either way, and turned off by --no- or --no: V8 takes them.
    const fine = await afford(['jobs', 'list'], { ...env, AFFORD_V8_FLAGS: '--heap_growing_percent=40 --no-trace-gc --notrace-gc-verbose --stack-size=+2000' });
    expect(fine.code, fine.stderr).toBe(0);
    expect(fine.stderr).not.toMatch(/unrecognized|illegal value/);
  });

  it('refuses a value that is not a list of flags, naming the setting', async () => {
    const run = await afford(['jobs', 'list'], { ...env, AFFORD_V8_FLAGS: 'rm -rf /' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('AFFORD_V8_FLAGS: must be V8 flags');
  });
});

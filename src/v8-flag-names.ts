import { spawnSync } from 'node:child_process';

/**
 * The flags this Node's V8 has, and what each takes, as `node --v8-options`
 * lists them: V8 itself only prints a line on standard error for a flag it
 * does not know (or a value it cannot read) and carries on without it, so a
 * misspelt AFFORD_V8_FLAGS did nothing, unnoticed. Names are kept with `-`
 * for `_`, which V8 takes alike.
 */

/** What a flag takes: `bool` (or `maybe_bool`), a whole number (signed or not), a number, or a string. */
type FlagType = 'bool' | 'whole' | 'unsigned' | 'number' | 'string';
const UNSIGNED = new Set(['uint', 'uint64', 'size_t']);

let known: Map<string, FlagType> | undefined;

/** V8's flags by name, or undefined when the list cannot be had (then nothing is checked). */
function v8Flags(): Map<string, FlagType> | undefined {
  if (known) return known;
  const listed = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8', timeout: 10_000 });
  if (listed.status !== 0 || typeof listed.stdout !== 'string') return undefined;
  const flags = new Map<string, FlagType>();
  const lines = listed.stdout.split('\n');
  lines.forEach((line, i) => {
    const name = /^ {2}--([a-z0-9_-]+) \(/i.exec(line)?.[1];
    if (name === undefined) return;
    const type = /^\s+type: (\S+)/.exec(lines[i + 1] ?? '')?.[1] ?? 'string';
    flags.set(name.replaceAll('_', '-'), type.endsWith('bool') ? 'bool' : type === 'int' ? 'whole' : UNSIGNED.has(type) ? 'unsigned' : type === 'float' ? 'number' : 'string');
  });
  if (flags.size > 0) known = flags;
  return known;
}

/**
 * Flags V8 takes only as the process starts, which AFFORD_V8_FLAGS cannot
 * give it (it is applied to a running process): `help` prints V8's help and
 * ends the process (exit 0, the command never run), and those that make V8
 * run its collector on one thread stop the process in V8's first
 * collection once its concurrent marking has begun (a fatal error, exit
 * 133), as `jitless` does at the first WebAssembly module compiled.
 * `node --single-threaded-gc bin/afford.mjs ...` gives those.
 */
const AT_START_ONLY = new Map([
  ['help', 'prints V8\'s help and ends the process: it is no setting'],
  ['single-threaded', 'must be given to node as it starts (node --single-threaded ...): V8 cannot stop its own threads in a running process, and stops it'],
  ['single-threaded-gc', 'must be given to node as it starts (node --single-threaded-gc ...): V8 cannot stop its own threads in a running process, and stops it'],
  ['predictable', 'must be given to node as it starts (node --predictable ...): V8 cannot stop its own threads in a running process, and stops it'],
  ['jitless', 'must be given to node as it starts (node --jitless ...): set in a running process, it stops V8 at the first WebAssembly compiled (the check of a ZStandard input\'s checksums compiles some)'],
]);

/** What is wrong with a list of flags (`--name` or `--name=value`, separated by spaces), or undefined when V8 takes them all. */
export function v8FlagsProblem(value: string): string | undefined {
  const flags = v8Flags();
  if (flags === undefined) return undefined;
  for (const flag of value.trim().split(/\s+/).filter(Boolean)) {
    const at = flag.indexOf('=');
    const written = at < 0 ? flag : flag.slice(0, at);
    const given = at < 0 ? undefined : flag.slice(at + 1);
    let name = written.replace(/^--?/, '').replaceAll('_', '-');
    // An on/off flag is turned off as --no-name or --noname.
    for (const off of ['no-', 'no']) {
      if (!flags.has(name) && name.startsWith(off) && flags.get(name.slice(off.length)) === 'bool') name = name.slice(off.length);
    }
    const type = flags.get(name);
    if (type === undefined) return `${written} is not a flag of this Node's V8 (node --v8-options lists them)`;
    const startOnly = AT_START_ONLY.get(name);
    if (startOnly !== undefined) return `${written} ${startOnly}`;
    if (type === 'bool' && given !== undefined) return `${written} is on or off, and takes no value`;
    if (type !== 'bool' && given === undefined) return `${written} takes a value: ${written}=...`;
    if (type === 'whole' && !/^[+-]?\d+$/.test(given ?? '')) return `${written} takes a whole number, not '${given}'`;
    if (type === 'unsigned' && !/^\+?\d+$/.test(given ?? '')) return `${written} takes a whole number of 0 or more, not '${given}'`;
    if (type === 'number' && !/^[+-]?\d+(\.\d+)?$/.test(given ?? '')) return `${written} takes a number, not '${given}'`;
  }
  return undefined;
}

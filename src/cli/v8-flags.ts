import v8 from 'node:v8';
import { SETTINGS, V8_FLAGS_PATTERN } from '../config.js';
import { v8FlagsProblem } from '../v8-flag-names.js';

/**
 * Hands AFFORD_V8_FLAGS (or its default) to V8, before the command runs.
 * V8 reads some flags at every collection, and these take effect so: the
 * default, `--heap-growing-percent`, makes the heap grow by that much over
 * what survived the last full collection rather than by V8's own factor
 * (up to four times), so garbage is collected before it piles up to
 * hundreds of MB. Flags read only when the process starts (heap sizes) do
 * nothing here; `node --max-old-space-size=...` sets those. A value that is
 * not a list of flags is left alone here: loading the configuration refuses
 * it with the other settings' mistakes.
 */
export function applyV8Flags(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const fallback = SETTINGS.find((s) => s.name === 'AFFORD_V8_FLAGS')?.default;
  const value = env['AFFORD_V8_FLAGS'] || fallback;
  if (!value || !V8_FLAGS_PATTERN.test(value)) return undefined;
  // Nor one the settings refuse: V8 would print its own lines first, or end the process, before the refusal.
  if (value !== fallback && v8FlagsProblem(value) !== undefined) return undefined;
  v8.setFlagsFromString(value.trim());
  return value;
}

import type { Logger } from '../logger.js';

/** What the catch-up check needs of the consumer. */
export interface CatchUpSource {
  /** The ends of this worker's partitions now, keyed `topic#partition`. */
  ends(): Promise<Map<string, bigint>>;
  /** DuckDB's next offset of the partition; undefined before it has one. */
  position(key: string): bigint | undefined;
  /** How many times the partition's offset was reset, its stored offset being past its end (a topic made again). */
  resets(key: string): number;
}

/**
 * For a refresh (src/tasks/catch-up.ts): notes the end of every partition of
 * this worker now; the check holds once DuckDB has reached them all. A
 * partition whose stored offset is then past its end was made again: its
 * offset counts only once it was reset since. While the brokers cannot be
 * asked, the check keeps asking and says no.
 */
export function catchUpProbe(source: CatchUpSource, log: Logger): () => Promise<() => Promise<boolean>> {
  const note = async (): Promise<{ ends: Map<string, bigint>; resetsThen: Map<string, number> }> => {
    const ends = await source.ends();
    const stale = [...ends].filter(([k, end]) => (source.position(k) ?? 0n) > end);
    return { ends, resetsThen: new Map(stale.map(([k]) => [k, source.resets(k)])) };
  };
  return async () => {
    let noted = await note().catch((err: unknown) => {
      log.warn({ err }, 'could not read partition ends for a catch-up check; will retry');
      return undefined;
    });
    return async () => {
      noted ??= await note().catch(() => undefined);
      if (!noted) return false;
      const { ends, resetsThen } = noted;
      return [...ends].every(([k, end]) => end === 0n || ((source.position(k) ?? 0n) >= end && source.resets(k) > (resetsThen.get(k) ?? -1)));
    };
  };
}

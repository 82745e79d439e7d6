import { createHash } from 'node:crypto';
import { LIMITS } from '../domain/event-limits.js';
import { parseEvent, rawTooLong } from '../domain/events.js';
import { quickEvent } from './fast-event.js';
import type { PreparedItem, RawItem, SourceRef } from './types.js';

/** Validates raw events at the edge; a bad one becomes a dead letter with its reason. */
export function prepareItems(items: readonly RawItem[]): PreparedItem[] {
  return items.map(({ raw, ref, refused }) => {
    if (refused !== undefined) return { kind: 'dead', raw, reason: refused, ref };
    const quick = quickEvent(raw);
    if (quick) return { kind: 'event', event: quick, raw, ref };
    const parsed = parseEvent(raw);
    if (parsed.ok) return { kind: 'event', event: parsed.event, raw, ref };
    // An over-long event is kept in its dead letter by its start only.
    return { kind: 'dead', raw: rawTooLong(raw) ? raw.slice(0, LIMITS.rawPrefixChars) : raw, reason: parsed.reason, ref };
  });
}

/**
 * Identifies one bad input, so that reading it again adds no second dead
 * letter: its place, and for a file or a Kafka message its content too, as
 * a place can hold something else later (a file written again; a topic made
 * again from offset 0, whose new bad message at an old offset was skipped).
 */
export function dedupeKey(ref: SourceRef, raw: string): string {
  const digest = (): string => createHash('sha1').update(raw).digest('hex');
  switch (ref.source) {
    case 'kafka':
      return `kafka:${ref.sourceRef}:${ref.partition ?? -1}:${ref.offset ?? ''}:${digest()}`;
    case 'http':
      return `http:${ref.sourceRef}:${ref.lineNumber ?? 0}`;
    case 'file':
      return `file:${ref.sourceRef}:${ref.lineNumber ?? 0}:${digest()}`;
  }
}

import { createHash } from 'node:crypto';
import { parseEvent } from '../domain/events.js';
import type { PreparedItem, RawItem, SourceRef } from './types.js';

/** Validates raw events at the edge; a bad one becomes a dead letter with its reason. */
export function prepareItems(items: readonly RawItem[]): PreparedItem[] {
  return items.map(({ raw, ref }) => {
    const parsed = parseEvent(raw);
    return parsed.ok ? { kind: 'event', event: parsed.event, raw, ref } : { kind: 'dead', raw, reason: parsed.reason, ref };
  });
}

/** Identifies one bad input, so that reading it again adds no second dead letter. */
export function dedupeKey(ref: SourceRef, raw: string): string {
  switch (ref.source) {
    case 'kafka':
      return `kafka:${ref.sourceRef}:${ref.partition ?? -1}:${ref.offset ?? ''}`;
    case 'http':
      return `http:${ref.sourceRef}:${ref.lineNumber ?? 0}`;
    case 'file': {
      const digest = createHash('sha1').update(raw).digest('hex');
      return `file:${ref.sourceRef}:${ref.lineNumber ?? 0}:${digest}`;
    }
  }
}

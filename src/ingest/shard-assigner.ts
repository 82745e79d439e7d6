import type { Shard } from './kafka-settings.js';

/**
 * Partition assignment by shard, independent of the Kafka client: shard k of
 * n owns the partitions p with p mod n = k. Each worker writes its own DuckDB
 * file, and a customer's events sit on one partition, so a fixed mapping
 * keeps each customer in one file. A partition whose shard has no member
 * stays unassigned until that worker comes back: handing it to another shard
 * would split the customer across files.
 */

export interface ShardClaim {
  memberId: string;
  /** Null when the member sent no readable shard (an older or foreign client). */
  shard: Shard | null;
  topics: readonly string[];
}

export interface ShardPlan {
  /** memberId -> topic -> partitions, for every member (an idle member gets an empty map). */
  assignments: Map<string, Record<string, number[]>>;
  /** Partitions that no member claims, by topic. */
  unassigned: Record<string, number[]>;
}

export const ownsPartition = (shard: Shard, partition: number): boolean => partition % shard.count === shard.index;

/**
 * When two members claim the same shard, the first by member id takes all of
 * its partitions and the other waits as a standby: splitting a shard between
 * two DuckDB files would split its customers.
 */
export function planShardAssignment(claims: readonly ShardClaim[], partitionsByTopic: ReadonlyMap<string, readonly number[]>): ShardPlan {
  const sorted = [...claims].sort((a, b) => (a.memberId < b.memberId ? -1 : a.memberId > b.memberId ? 1 : 0));
  const assignments = new Map<string, Record<string, number[]>>(sorted.map((c) => [c.memberId, {}]));
  const unassigned: Record<string, number[]> = {};
  for (const [topic, partitions] of partitionsByTopic) {
    for (const partition of [...partitions].sort((a, b) => a - b)) {
      const owner = sorted.find((c) => c.shard !== null && c.topics.includes(topic) && ownsPartition(c.shard, partition));
      const target = owner ? assignments.get(owner.memberId) : undefined;
      if (target) (target[topic] ??= []).push(partition);
      else (unassigned[topic] ??= []).push(partition);
    }
  }
  return { assignments, unassigned };
}

/** The shard travels in the member's join metadata, as JSON. */
export function encodeShardClaim(shard: Shard): Buffer {
  return Buffer.from(JSON.stringify({ shard: `${shard.index}/${shard.count}` }), 'utf8');
}

export function decodeShardClaim(userData: Buffer | null | undefined): Shard | null {
  if (!userData || userData.length === 0) return null;
  try {
    const parsed = JSON.parse(userData.toString('utf8')) as { shard?: unknown };
    const match = typeof parsed.shard === 'string' ? /^(\d+)\/(\d+)$/.exec(parsed.shard) : null;
    if (!match) return null;
    const shard = { index: Number(match[1]), count: Number(match[2]) };
    return shard.count >= 1 && shard.index < shard.count ? shard : null;
  } catch {
    return null;
  }
}

import route from '../../deploy/front/route.js';
import type { Shard } from './kafka-settings.js';

/**
 * Which customers a shard does not own: the front's own routing function
 * (deploy/front/route.js, the producer's partitioner modulo the shard
 * count), so that a shard refuses exactly what the front would send
 * elsewhere.
 */
export function foreignCustomers(customerIds: readonly string[], shard: Shard, partitions: number): string[] {
  return [...new Set(customerIds)].filter((id) => route.shardOf(id, partitions, shard.count) !== shard.index);
}

import { Partitioners } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import route from '../../deploy/front/route.js';
import { frontConfig } from '../helpers/front.js';

/** The partition kafkajs's default partitioner (the one afford's producer uses) gives a key. */
function kafkajsPartition(key: string, partitions: number): number {
  const partitioner = Partitioners.DefaultPartitioner();
  const partitionMetadata = Array.from({ length: partitions }, (_, partitionId) => ({ partitionId, leader: 0, partitionErrorCode: 0, replicas: [0], isr: [0] }));
  return partitioner({ topic: 't', partitionMetadata, message: { key, value: null } });
}

/** Customer ids of every length from 0 to 40 characters, ASCII and beyond (accents, CJK, emoji), and the generator's shape. */
function keys(count: number): string[] {
  const alphabet = ['a', 'Z', '0', '-', '_', '.', 'é', 'ß', '中', '文', '😀', ' ', '~'];
  let seed = 7;
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) out.push(`cust-${String(i).padStart(6, '0')}`);
    else out.push(Array.from({ length: next() % 41 }, () => alphabet[next() % alphabet.length]).join(''));
  }
  return out;
}

describe('the front routes a customer as the Kafka producer partitions it', () => {
  const sample = keys(10_000);

  it('gives the partition kafkajs gives, for 10,000 keys and several partition counts', () => {
    for (const partitions of [1, 4, 8, 12, 32]) {
      const mismatches = sample.filter((key) => route.partitionOf(key, partitions) !== kafkajsPartition(key, partitions));
      expect(mismatches, `partitions=${partitions}`).toEqual([]);
    }
  });

  it('sends a customer call to the shard that owns the partition, and any other call to any shard', () => {
    const shardOfPartition = (p: number, shards: number) => p % shards;
    for (const key of sample.slice(0, 2000).filter((k) => k !== '')) {
      const expected = shardOfPartition(kafkajsPartition(key, 8), 2);
      expect(route.upstream({ headersIn: { 'X-Customer-ID': key }, variables: { afford_partitions: '8', afford_shards: '2' } })).toBe(`afford_shard_${expected}`);
    }
    expect(route.upstream({ headersIn: {}, variables: { afford_partitions: '8', afford_shards: '2' } })).toBe('afford_any');
    expect(() => route.upstream({ headersIn: { 'X-Customer-ID': 'c' }, variables: { afford_partitions: 'eight', afford_shards: '2' } })).toThrow(/afford_partitions/);
  });

  it('routes on X-Customer-Idempotent-Identifier, which afford accepts for X-Customer-ID', () => {
    const variables = { afford_partitions: '8', afford_shards: '2' };
    for (const key of sample.slice(0, 500).filter((k) => k !== '')) {
      const expected = `afford_shard_${kafkajsPartition(key, 8) % 2}`;
      expect(route.upstream({ headersIn: { 'X-Customer-Idempotent-Identifier': key }, variables })).toBe(expected);
      expect(route.upstream({ headersIn: { 'X-Customer-ID': key, 'X-Customer-Idempotent-Identifier': key }, variables })).toBe(expected);
    }
  });

  it("sends a first-party ingestion to its first customer's shard, named by the header or else by the body", () => {
    const variables = { afford_partitions: '8', afford_shards: '2' };
    const shard = (key: string) => `afford_shard_${kafkajsPartition(key, 8) % 2}`;
    const [a, b] = [sample[0] as string, sample.slice(1).find((k) => k !== '' && shard(k) !== shard(sample[0] as string)) as string];
    const body = (entries: unknown[]) => JSON.stringify(entries.map((e) => ({ ...(e as object), transactions: [{}] })));
    expect(route.ingestUpstream({ headersIn: {}, variables }, body([{ customer_id: a }, { customer_id: b }]))).toBe(shard(a));
    expect(route.ingestUpstream({ headersIn: {}, variables }, body([{ customer_idempotent_identifier: b }]))).toBe(shard(b));
    expect(route.ingestUpstream({ headersIn: { 'X-Customer-ID': a }, variables }, body([{ customer_id: b }]))).toBe(shard(a));
    // A body that starts with a byte order mark, which afford reads as the JSON after it.
    expect(route.ingestUpstream({ headersIn: {}, variables }, `\uFEFF${body([{ customer_id: b }])}`)).toBe(shard(b));
    for (const bad of [undefined, '', 'not json', '{}', '[]', '[null]', '[{"customer_id":7}]']) {
      expect(route.ingestUpstream({ headersIn: {}, variables }, bad), String(bad)).toBe('afford_any');
    }
  });

  it('spreads customers over the shards', () => {
    const counts = [0, 0, 0];
    for (const key of sample) counts[route.shardOf(key, 12, 3)]! += 1;
    for (const c of counts) expect(c).toBeGreaterThan(2800);
  });

  it('keeps one upstream per shard in the configuration the test runs', () => {
    const conf = frontConfig(['127.0.0.1:1', '127.0.0.1:2', '127.0.0.1:3'], 6, 9);
    expect(conf).toContain('upstream afford_shard_2 {');
    expect(conf).toContain('js_var $afford_shards 3;');
    expect(conf).toContain('js_var $afford_partitions 6;');
    expect(conf.match(/server 127\.0\.0\.1:\d;/g)).toHaveLength(3);
    // Every shard stays in afford_any after a failure: a call asked of each shard in turn must reach them all.
    expect(conf.match(/server 127\.0\.0\.1:\d max_fails=0;/g)).toHaveLength(3);
  });
});

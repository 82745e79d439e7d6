import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { endOffsets, generated, TOPICS, writeLines } from '../helpers/kafka-data.js';
import { Worker } from '../helpers/kafka-worker.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

const kafka = useKafkaFixture('afford-kafka-serve-');

/** Sums a Prometheus metric over its label sets. */
function metricSum(text: string, name: string): number {
  return text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .reduce((sum, l) => sum + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
}

describe('afford produce and afford serve with Kafka', () => {
  it('publishes a generated file, consumes it in the service, reports it at /metrics and stops cleanly on SIGTERM', async () => {
    const { lines, stats } = generated({ customers: 8, months: 2, seed: 51, faults: true, endMonth: '2024-06' });
    const file = writeLines(kafka.dir, 'events.ndjson', lines);
    const env = { ...process.env, AFFORD_KAFKA_BROKERS: kafka.broker.bootstrap, AFFORD_LOG_LEVEL: 'warn' };
    const produced = await run(process.execPath, ['bin/afford.mjs', 'produce', file], { cwd: ROOT, env });
    expect(produced.stdout).toContain(`produced ${lines.length} messages`);
    const ends = await endOffsets(kafka.broker.bootstrap, TOPICS);

    const service = new Worker({
      db: path.join(kafka.dir, 'serve.duckdb'),
      brokers: kafka.broker.bootstrap,
      groupId: 'serve-test',
      topics: TOPICS,
      command: ['serve'],
      env: { AFFORD_PORT: '0', AFFORD_KAFKA_SESSION_TIMEOUT_MS: '4000' },
    });
    await service.waitFor('the API', () => service.lines.some((l) => l.msg === 'afford is serving'));
    const address = service.lines.find((l) => l.msg === 'afford is serving')?.address as string;
    await service.waitForEnds(ends);

    const response = await fetch(`${address}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/text\/plain/);
    const text = await response.text();
    expect(metricSum(text, 'afford_kafka_committed_offset')).toBe(lines.length);
    expect(metricSum(text, 'afford_kafka_consumer_lag')).toBe(0);
    expect(metricSum(text, 'afford_dead_letters_total')).toBe(stats.expected.deadLetters);
    expect(metricSum(text, 'afford_events_ingested_total')).toBe(lines.length - stats.expected.deadLetters);
    expect(metricSum(text, 'afford_ingest_batch_duration_seconds_count')).toBeGreaterThan(0);

    service.kill('SIGTERM');
    expect(await service.exited).toEqual({ code: 0, signal: null });
    const order = service.lines.map((l) => l.msg);
    expect(order.indexOf('Kafka consumer left the group')).toBeGreaterThan(order.indexOf('stopping'));
  }, 90_000);
});

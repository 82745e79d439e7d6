import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { produceFile } from '../../src/ingest/kafka-produce.js';
import { useKafkaFixture } from '../helpers/kafka-fixture.js';
import { brokerTopics, generated, readTopics } from '../helpers/kafka-data.js';

const TOPIC = 'afford.produce-compressed-test.v1';
const kafka = useKafkaFixture('afford-produce-compressed-', brokerTopics([TOPIC], 2));

describe('afford produce of a compressed file', () => {
  it('publishes the lines of a gzip file, not its bytes', async () => {
    const { lines } = generated({ customers: 3, months: 1, seed: 41, faults: true, endMonth: '2024-06' });
    const file = path.join(kafka.dir, 'events.ndjson.gz');
    writeFileSync(file, gzipSync(lines.map((l) => `${l}\n`).join('')));
    const summary = await produceFile(kafka.producer(), file, { topics: [TOPIC] });
    expect(summary.messages).toBe(lines.length);
    const read = await readTopics(kafka.broker.bootstrap, [TOPIC]);
    expect(read.map((m) => m.value).sort()).toEqual([...lines].sort());
  });
});

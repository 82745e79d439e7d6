import { describe, expect, it } from 'vitest';
import { createOffsetReader, createProducer } from '../../src/ingest/kafka-client.js';
import type { KafkaConnection } from '../../src/ingest/kafka-settings.js';
import { loggedLines } from '../helpers/log-lines.js';

const PASSWORD = 'sasl-password-never-logged';
const connection = (mechanism: 'plain' | 'scram-sha-512', ssl: boolean): KafkaConnection => ({
  // Nothing listens here, and nothing connects: making a client is enough.
  brokers: ['127.0.0.1:1'],
  clientId: 'afford-test',
  ssl,
  sasl: { mechanism, username: 'afford', password: PASSWORD },
});

/** The warnings logged as clients of `c` are made (two clients: a producer and an offset reader). */
async function warningsFor(c: KafkaConnection): Promise<{ msg: string; [field: string]: unknown }[]> {
  const { logger, lines } = loggedLines('info');
  const producer = createProducer(c, logger);
  const reader = createOffsetReader(c, logger);
  await producer.close();
  await reader.close();
  expect(JSON.stringify(lines)).not.toContain(PASSWORD);
  return lines.filter((l) => l['level'] === 40);
}

describe('a SASL password sent in clear', () => {
  it('is warned about, once a connection, when the PLAIN mechanism goes without TLS', async () => {
    const warnings = await warningsFor(connection('plain', false));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]?.msg).toMatch(/AFFORD_KAFKA_SASL_MECHANISM=plain without AFFORD_KAFKA_SSL=true sends the SASL password to the brokers in clear/);
    expect(warnings[0]?.['sasl']).toEqual({ mechanism: 'plain', username: 'afford' });
  });

  it.each([
    ['PLAIN over TLS', connection('plain', true)],
    ['SCRAM without TLS, which never sends the password itself', connection('scram-sha-512', false)],
  ])('is not warned about for %s', async (_name, c) => {
    expect(await warningsFor(c)).toEqual([]);
  });
});

import { ClientStateReplica } from '../cluster/client-state-replica.js';
import type { Config } from '../config.js';
import { onClientStateApplied, setClientStateWriter } from '../db/client-state.js';
import { announceDataChange } from '../db/data-changes.js';
import type { Store } from '../db/store.js';
import { affordError } from '../domain/errors.js';
import { kafkaIngestSettingsFromConfig } from '../ingest/kafka-settings.js';
import type { Logger } from '../logger.js';

/**
 * With AFFORD_CLIENT_STATE_TOPIC set (several shards), client-level state
 * travels on that topic: this shard's replica applies it, and the store's
 * repositories write through it. Unset (one machine), nothing starts.
 */
export async function startClientState(store: Store, config: Config, logger: Logger): Promise<ClientStateReplica | undefined> {
  const topic = config.AFFORD_CLIENT_STATE_TOPIC;
  if (!topic) return undefined;
  // A token issued by one shard is checked by another: they must share the key.
  if (!config.AFFORD_TOKEN_SECRET) throw affordError('CLIENT_STATE_NEEDS_TOKEN_SECRET');
  const replica = await ClientStateReplica.start(store, { kafka: kafkaIngestSettingsFromConfig(config), topic, waitMs: config.AFFORD_CLIENT_STATE_WAIT_MS }, logger);
  setClientStateWriter(store, replica);
  // A changed client, definition or subscription may change any kept answer
  // or auth record; such changes are rare, so every kept answer is dropped.
  onClientStateApplied(store, () => announceDataChange(store, { kind: 'everything' }));
  return replica;
}

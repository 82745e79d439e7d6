import type { Store } from '../db/store.js';
import {
  applyClientState,
  notifyClientStateApplied,
  saveClientStateOffset,
  storedClientStateOffsets,
  type ClientStateWriter,
} from '../db/client-state.js';
import { clientStateKey, lastChangeOfEach, parseClientStateMessage, type ClientStateChange } from '../domain/client-state.js';
import { affordError } from '../domain/errors.js';
import { createOffsetReader, createProducer, startGroupConsumer } from '../ingest/kafka-client.js';
import type { KafkaIngestSettings } from '../ingest/kafka-settings.js';
import type { BatchControl, GroupConsumer, MessageProducer, OffsetReader, PartitionSeek, SourceBatch } from '../ingest/kafka-types.js';
import type { Logger } from '../logger.js';
import { EndOffsetRounds } from './end-offset-rounds.js';

/**
 * This shard's copy of the client-level state: it reads the whole
 * client-state topic in a consumer group of its own, applies each batch to
 * the DuckDB file in one transaction with its offsets (exactly once), and
 * writes changes by producing them to the topic.
 *
 * The rule that keeps every shard consistent: nothing is read or answered
 * here before the shard has applied the topic up to the end it had when the
 * call arrived (caughtUp). A write produces its change and then waits the
 * same way, so it answers only once its own shard has applied it; any call
 * that follows it, on any shard, then waits until that shard has applied it
 * too.
 */

/** What DuckDB says when a value is what it cannot hold, rather than when it itself fails. */
const CONTENT_REFUSAL = /^(Conversion|Constraint|Invalid Input|Out of Range) Error/;

export interface ClientStateSettings {
  kafka: KafkaIngestSettings;
  topic: string;
  /** Longest a call waits for this shard to catch up before it fails. */
  waitMs: number;
}

export class ClientStateReplica implements ClientStateWriter {
  /** partition -> next offset to apply, as committed to DuckDB. */
  private readonly applied = new Map<number, bigint>();
  private readonly waiters = new Set<() => void>();
  private consumer: GroupConsumer | undefined;
  private readonly rounds: EndOffsetRounds;
  private readonly log: Logger;

  private constructor(
    private readonly store: Store,
    private readonly settings: ClientStateSettings,
    private readonly producer: MessageProducer,
    private readonly offsetReader: OffsetReader,
    logger: Logger,
  ) {
    this.log = logger.child({ component: 'client-state', topic: settings.topic });
    this.rounds = new EndOffsetRounds(async () => {
      const ends = await this.offsetReader.endOffsets([settings.topic]);
      return new Map([...ends].map(([key, end]) => [Number(key.slice(key.lastIndexOf('#') + 1)), end]));
    });
  }

  static async start(store: Store, settings: ClientStateSettings, logger: Logger): Promise<ClientStateReplica> {
    const { connection } = settings.kafka;
    const replica = new ClientStateReplica(store, settings, createProducer(connection, logger), createOffsetReader(connection, logger), logger);
    for (const [partition, offset] of await storedClientStateOffsets(store, settings.topic)) replica.applied.set(partition, offset);
    const shard = settings.kafka.shard;
    // A group of its own per shard: every shard reads every message of the topic.
    const groupId = `${settings.kafka.groupId}.client-state.${shard.index}`;
    replica.consumer = startGroupConsumer(
      { ...settings.kafka, groupId, topics: [settings.topic], shard: { index: 0, count: 1 } },
      {
        onAssigned: (assignment) => replica.onAssigned(assignment),
        onBatch: (batch, control) => replica.onBatch(batch, control),
        onRestart: (reason) => replica.log.warn({ reason }, 'client-state consumer restarting'),
      },
      logger,
    );
    replica.log.info({ group_id: groupId, applied: Object.fromEntries([...replica.applied].map(([p, o]) => [p, String(o)])) }, 'client-state replica starting');
    return replica;
  }

  /** Produces the change, then waits until this shard has applied it. A change no shard would take is refused here. */
  async write(change: ClientStateChange): Promise<void> {
    const valid = parseClientStateMessage(clientStateKey(change), change.value ? JSON.stringify(change.value) : null);
    if (typeof valid === 'string') throw affordError('CLIENT_STATE_INVALID', clientStateKey(change), valid);
    await this.producer.send([{ topic: this.settings.topic, messages: [{ key: clientStateKey(change), value: change.value ? JSON.stringify(change.value) : null }] }]);
    await this.caughtUp();
  }

  /**
   * Resolves once this shard has applied every message the topic held when
   * the call came (the end is asked after the call, so every write answered
   * before it is included); fails with CLIENT_STATE_BEHIND after waitMs.
   */
  async caughtUp(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    let check: (() => void) | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(affordError('CLIENT_STATE_BEHIND', this.settings.topic, String(this.settings.waitMs))), this.settings.waitMs);
    });
    const reached = this.rounds.next().then(
      (ends) =>
        new Promise<void>((resolve) => {
          check = () => {
            if ([...ends].every(([p, end]) => end === 0n || (this.applied.get(p) ?? 0n) >= end)) resolve();
          };
          this.waiters.add(check);
          check();
        }),
    );
    try {
      await Promise.race([reached, deadline]);
    } finally {
      clearTimeout(timer);
      if (check) this.waiters.delete(check);
      // A round that fails after the deadline has nobody left to tell.
      reached.catch(() => undefined);
    }
  }

  async stop(): Promise<void> {
    await this.consumer?.stop();
    this.consumer = undefined;
    await this.producer.close();
    await this.offsetReader.close();
  }

  private onAssigned(assignment: ReadonlyMap<string, readonly number[]>): PartitionSeek[] {
    const partitions = assignment.get(this.settings.topic) ?? [];
    return partitions.map((partition) => ({ topic: this.settings.topic, partition, offset: String(this.applied.get(partition) ?? 0n) }));
  }

  private async onBatch(batch: SourceBatch, control: BatchControl): Promise<void> {
    const from = this.applied.get(batch.partition) ?? 0n;
    const messages = batch.messages.filter((m) => BigInt(m.offset) >= from);
    const last = messages.at(-1);
    if (!last || !control.isRunning() || control.isStale()) return;
    const changes: ClientStateChange[] = [];
    for (const m of messages) {
      const parsed = parseClientStateMessage(m.key?.toString('utf8') ?? null, m.value?.toString('utf8') ?? null);
      // A message no shard can apply is skipped by all of them alike, rather than stopping the topic for good.
      if (typeof parsed === 'string') this.log.error({ partition: batch.partition, offset: m.offset, reason: parsed }, 'client-state message skipped');
      else changes.push(parsed);
    }
    const next = BigInt(last.offset) + 1n;
    let applying = lastChangeOfEach(changes);
    try {
      await this.store.write(async (conn) => {
        for (const change of applying) await applyClientState(conn, change);
        await saveClientStateOffset(conn, this.settings.topic, batch.partition, next);
      });
    } catch (err) {
      applying = await this.applyEachAlone(applying, batch.partition, next, err);
    }
    this.applied.set(batch.partition, next);
    control.markDone(last.offset);
    this.log.debug({ partition: batch.partition, next_offset: String(next), changes: applying.length }, 'client-state applied');
    if (applying.length) notifyClientStateApplied(this.store, applying);
    for (const check of this.waiters) check();
    void this.consumer?.commitForLag([{ topic: this.settings.topic, partition: batch.partition, offset: String(next) }]);
  }

  /**
   * A batch the store refused: each change is applied in a transaction of
   * its own. A change the store refuses for what it holds (a value it
   * cannot convert or keep: CONTENT_REFUSAL) is skipped, with an error in
   * the log; every shard reads the same message, so each skips it alike,
   * rather than stopping the topic for good. Any other failure (out of
   * memory, a full disk) is the store's, which may not recur: the batch
   * fails, and is read again, rather than one shard skipping what the
   * others applied. Returns the changes applied.
   */
  private async applyEachAlone(changes: readonly ClientStateChange[], partition: number, next: bigint, cause: unknown): Promise<ClientStateChange[]> {
    const applied: ClientStateChange[] = [];
    const refused: Array<{ change: ClientStateChange; err: unknown }> = [];
    for (const change of changes) {
      try {
        await this.store.write((conn) => applyClientState(conn, change));
        applied.push(change);
      } catch (err) {
        if (!CONTENT_REFUSAL.test((err as Error).message)) throw err;
        refused.push({ change, err });
      }
    }
    // The offset on its own: it fails only when the store does.
    await this.store.write((conn) => saveClientStateOffset(conn, this.settings.topic, partition, next)).catch((err: unknown) => {
      throw refused.length === changes.length ? cause : err;
    });
    for (const { change, err } of refused) {
      this.log.error({ partition, key: clientStateKey(change), err: (err as Error).message }, 'client-state change skipped: the store refuses it');
    }
    return applied;
  }
}

import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Store } from '../db/store.js';
import { onEveryCommit } from './pipeline.js';
import type { BatchResult } from './types.js';

/** Prometheus metrics of one worker process; served at /metrics. */
export class IngestMetrics {
  readonly registry = new Registry();
  readonly events = new Counter({
    name: 'afford_events_ingested_total',
    help: 'Events ingested, by source (file, http, kafka), type and outcome (applied, unchanged)',
    labelNames: ['source', 'type', 'outcome'] as const,
    registers: [this.registry],
  });
  readonly deadLetters = new Counter({
    name: 'afford_dead_letters_total',
    help: 'Events that failed validation and became dead letters',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly batchDuration = new Histogram({
    name: 'afford_ingest_batch_duration_seconds',
    help: 'Time to validate and commit one ingest batch, by source',
    labelNames: ['source'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  readonly consumerLag = new Gauge({
    name: 'afford_kafka_consumer_lag',
    help: 'Messages between the last committed offset and the partition high watermark',
    labelNames: ['topic', 'partition'] as const,
    registers: [this.registry],
  });
  readonly committedOffset = new Gauge({
    name: 'afford_kafka_committed_offset',
    help: 'Next offset committed to DuckDB, per partition',
    labelNames: ['topic', 'partition'] as const,
    registers: [this.registry],
  });
  readonly consumerRestarts = new Counter({
    name: 'afford_kafka_consumer_restarts_total',
    help: 'Times the Kafka consumer lost the brokers or the group and started again',
    registers: [this.registry],
  });

  constructor() {
    // Process metrics (CPU, memory, event loop lag) on this registry only: no global state.
    collectDefaultMetrics({ register: this.registry, prefix: 'afford_' });
  }

  private readonly watched = new WeakSet<Store>();

  /**
   * Counts every batch committed on this store, from any source and through
   * any pipeline (Kafka, HTTP ingest, a file ingest run by the service).
   * Watching a store twice counts it once.
   */
  watch(store: Store): void {
    if (this.watched.has(store)) return;
    this.watched.add(store);
    onEveryCommit(store, (result, batch) => this.record(result, batch.source, batch.seconds));
  }

  record(result: BatchResult, source: string, seconds: number): void {
    for (const [type, outcome] of Object.entries(result.byType)) {
      if (outcome.applied) this.events.inc({ source, type, outcome: 'applied' }, outcome.applied);
      if (outcome.skipped) this.events.inc({ source, type, outcome: 'unchanged' }, outcome.skipped);
    }
    if (result.deadLetters.length) this.deadLetters.inc({ source }, result.deadLetters.length);
    this.batchDuration.observe({ source }, seconds);
  }
}

-- Moves this worker's position in a client-state partition, in the
-- transaction that applied the messages before it.
-- Parameters: $topic, $kafka_partition, $next_offset, $now.
INSERT INTO client_state_offsets (topic, kafka_partition, next_offset, updated_at)
VALUES ($topic, $kafka_partition, $next_offset::BIGINT, $now::TIMESTAMP)
ON CONFLICT (topic, kafka_partition) DO UPDATE SET next_offset = excluded.next_offset, updated_at = excluded.updated_at;

-- Runs inside the batch's transaction, so the offset moves exactly when the rows land.
-- Parameters: $kafka_partition, $next_offset, $topic.
INSERT INTO ingest_offsets (topic, kafka_partition, next_offset)
VALUES ($topic, $kafka_partition, $next_offset)
ON CONFLICT (topic, kafka_partition) DO UPDATE SET next_offset = excluded.next_offset, updated_at = now();

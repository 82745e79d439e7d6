-- Stores the next offset of every partition a batch read, in one statement.
-- Runs inside the batch's transaction, so the offsets move exactly when the rows land.
-- $offsets: JSON array of {"topic", "kafka_partition", "next_offset"}.
INSERT INTO ingest_offsets (topic, kafka_partition, next_offset)
SELECT o.topic, o.kafka_partition, o.next_offset
FROM (SELECT unnest(from_json($offsets::JSON, '[{"topic":"VARCHAR","kafka_partition":"INTEGER","next_offset":"BIGINT"}]'), recursive := true)) AS o
ON CONFLICT (topic, kafka_partition) DO UPDATE SET next_offset = excluded.next_offset, updated_at = now();

-- A message that validated but that the store could not take: a dead letter
-- of its own, so that its partition moves on. Same dedupe key as other Kafka dead letters.
INSERT INTO dead_letters (source, source_ref, kafka_partition, kafka_offset, message_key, raw, reason, dedupe_key)
SELECT 'kafka', $topic, $kafka_partition, $kafka_offset, $message_key, $raw, $reason, $dedupe_key
WHERE NOT EXISTS (SELECT 1 FROM dead_letters WHERE dedupe_key = $dedupe_key);

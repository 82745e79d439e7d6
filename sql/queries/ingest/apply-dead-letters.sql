-- One row per bad input, however often the same input is read again.
INSERT INTO dead_letters (source, source_ref, line_number, kafka_partition, kafka_offset, message_key, raw, reason, dedupe_key)
SELECT DISTINCT ON (s.dedupe_key) s.source, s.source_ref, s.line_number, s.kafka_partition, s.kafka_offset, s.message_key, s.raw, s.reason, s.dedupe_key
FROM stage_dead_letters s
WHERE NOT EXISTS (SELECT 1 FROM dead_letters d WHERE d.dedupe_key = s.dedupe_key);

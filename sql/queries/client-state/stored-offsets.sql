-- The next offset of each partition of the client-state topic applied here.
-- Parameters: $topic.
SELECT kafka_partition, next_offset::VARCHAR AS next_offset
FROM client_state_offsets
WHERE topic = $topic;

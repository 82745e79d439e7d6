-- The newest dead letters first, of one source or of all ($source NULL).
-- The raw text is stored with its secrets redacted.
-- Parameters: $limit, $source.
SELECT dead_letter_id::VARCHAR AS dead_letter_id,
       strftime(created_at, '%Y-%m-%dT%H:%M:%SZ') AS created_at,
       source, source_ref, line_number::VARCHAR AS line_number,
       kafka_partition, kafka_offset::VARCHAR AS kafka_offset, message_key,
       reason, raw
FROM dead_letters
WHERE $source IS NULL OR source = $source
-- By the stored number: the text of the same name above would sort #9 before #10.
ORDER BY dead_letters.dead_letter_id DESC
LIMIT $limit;

-- Where each partition resumes: the offset after the last one committed to DuckDB.
SELECT topic, kafka_partition, next_offset FROM ingest_offsets ORDER BY topic, kafka_partition;

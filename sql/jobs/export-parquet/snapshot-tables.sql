-- What the snapshot holds, to report with the run.
SELECT table_name, estimated_size::BIGINT AS rows
FROM duckdb_tables()
WHERE database_name = 'afford_snapshot'
ORDER BY table_name;

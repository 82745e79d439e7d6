-- One month of transactions as one Parquet file of a hive partition
-- (month=YYYY-MM/, the month column left to the folder name, as
-- PARTITION_BY writes it), without the store's own key_hash (migration
-- 018). A month at a time, so the writer's buffers stay
-- the same size however many months the store spans.
-- Row groups of 32,768 rows rather than DuckDB's 122,880: the writer holds
-- one in memory per thread, and this cut the export's peak by some 60 MB.
-- Parameters: $month (YYYY-MM), $file.
COPY (
    SELECT * EXCLUDE (month, key_hash) FROM transactions WHERE month = strptime($month, '%Y-%m')::DATE
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 32768);

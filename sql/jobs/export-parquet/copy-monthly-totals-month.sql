-- One month of monthly_category_totals as one Parquet file of a hive
-- partition (month=YYYY-MM/, the month column left to the folder name).
-- Row groups of 32,768 rows rather than DuckDB's 122,880: the writer holds
-- one in memory per thread, and this cut the export's peak by some 60 MB.
-- Parameters: $month (YYYY-MM), $file.
COPY (
    SELECT * EXCLUDE (month) FROM monthly_category_totals WHERE month = strptime($month, '%Y-%m')::DATE
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 32768);

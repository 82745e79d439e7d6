-- The affordability reports whose range ends in one month, as one Parquet
-- file of a hive partition (month=YYYY-MM/). A report is some 20 KB of JSON,
-- so row groups are kept to 1,024 reports: the writer holds one in memory.
-- Parameters: $month (YYYY-MM), $file.
COPY (
    SELECT * FROM affordability_reports WHERE month_to = strptime($month, '%Y-%m')::DATE
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1024);

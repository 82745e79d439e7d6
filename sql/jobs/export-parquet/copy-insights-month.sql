-- The insights of the affordability reports whose range ends in one month,
-- as one Parquet file of a hive partition (month=YYYY-MM/), filed like their
-- reports. Row groups are kept small, as for the reports.
-- Parameters: $month (YYYY-MM), $file.
COPY (
    SELECT * FROM affordability_insights WHERE month_to = strptime($month, '%Y-%m')::DATE
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1024);

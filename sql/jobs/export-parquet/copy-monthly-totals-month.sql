-- One month of monthly_category_totals as one Parquet file of a hive
-- partition (month=YYYY-MM/, the month column left to the folder name).
-- Parameters: $month (YYYY-MM), $file.
COPY (
    SELECT * EXCLUDE (month) FROM monthly_category_totals WHERE month = strptime($month, '%Y-%m')::DATE
) TO $file (FORMAT parquet, COMPRESSION zstd);

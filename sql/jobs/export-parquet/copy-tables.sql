-- Writes each table as Parquet, hive-partitioned by month (month=YYYY-MM).
-- A report is filed under the last month of its range. Secrets (the
-- customers table's secret hashes) are never exported.
-- Insights are filed like their reports.
-- Parameters: $insights_dir, $monthly_totals_dir, $reports_dir, $transactions_dir.
COPY (
    SELECT * EXCLUDE (month), strftime(month, '%Y-%m') AS month FROM transactions
) TO $transactions_dir (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd);

COPY (
    SELECT * EXCLUDE (month), strftime(month, '%Y-%m') AS month FROM monthly_category_totals
) TO $monthly_totals_dir (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd);

COPY (
    SELECT *, strftime(month_to, '%Y-%m') AS month FROM affordability_reports
) TO $reports_dir (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd);

COPY (
    SELECT *, strftime(month_to, '%Y-%m') AS month FROM affordability_insights
) TO $insights_dir (FORMAT parquet, PARTITION_BY (month), COMPRESSION zstd);

-- The affordability reports of one slice of customers whose range ends in
-- one month, as one Parquet file of a hive partition (month=YYYY-MM/,
-- data_<slice>.parquet). A report is some 50 KB of JSON, so row groups are
-- kept to 1,024 reports, and a slice (see export-months.sql) to a few hundred.
-- Parameters: $month (YYYY-MM), $first_customer, $last_customer, $file.
COPY (
    SELECT * FROM affordability_reports
    WHERE month_to = strptime($month, '%Y-%m')::DATE AND customer_id BETWEEN $first_customer AND $last_customer
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1024);

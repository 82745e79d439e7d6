-- The insights of the affordability reports of one slice of customers whose
-- range ends in one month, as one Parquet file of a hive partition
-- (month=YYYY-MM/, data_<slice>.parquet), filed like their reports. Row
-- groups are kept small, as for the reports.
-- Parameters: $month (YYYY-MM), $first_customer, $last_customer, $file.
COPY (
    SELECT * FROM affordability_insights
    WHERE month_to = strptime($month, '%Y-%m')::DATE AND customer_id BETWEEN $first_customer AND $last_customer
) TO $file (FORMAT parquet, COMPRESSION zstd, ROW_GROUP_SIZE 1024);

-- The pieces the export writes, one COPY each, in order: a month of
-- transactions or monthly totals (YYYY-MM), or a month of affordability
-- reports or insights for a slice of at most $slice_customers customers
-- (first_customer to last_customer, in customer order). A report is filed
-- under the last month of its range, and its insights with it. Reports are
-- some 50 KB of JSON each and DuckDB's Parquet writer holds whole scanned
-- chunks of 2,048 rows, so a whole month of reports needs more than the
-- memory limit; a slice keeps each COPY to a few hundred.
-- Parameters: $slice_customers.
WITH report_customers AS (
    SELECT DISTINCT 'affordability_reports' AS table_name, month_to AS month, customer_id FROM affordability_report_parts
    UNION ALL
    SELECT DISTINCT 'affordability_insights', month_to, customer_id FROM affordability_insights
),
sliced AS (
    SELECT table_name, month, customer_id,
           (row_number() OVER (PARTITION BY table_name, month ORDER BY customer_id) - 1) // $slice_customers AS slice
    FROM report_customers
)
SELECT table_name, month, 0 AS slice, NULL::VARCHAR AS first_customer, NULL::VARCHAR AS last_customer
FROM (
    SELECT DISTINCT 'transactions' AS table_name, strftime(month, '%Y-%m') AS month FROM transactions
    UNION ALL
    SELECT DISTINCT 'monthly_category_totals', strftime(month, '%Y-%m') FROM monthly_category_totals
)
UNION ALL
SELECT table_name, strftime(month, '%Y-%m'), slice::INTEGER, min(customer_id), max(customer_id)
FROM sliced
GROUP BY table_name, month, slice
ORDER BY table_name, month, slice;

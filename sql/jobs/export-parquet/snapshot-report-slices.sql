-- The customers of the affordability reports and insights, in slices of at
-- most $slice_customers (first_customer to last_customer, in customer
-- order): the snapshot copies them a slice per transaction, because a
-- transaction holds every string it writes in memory until it commits, and
-- 6,000 reports of some 50 KB each did not fit the 256MB memory limit.
-- Parameters: $slice_customers.
WITH customers AS (
    SELECT customer_id FROM affordability_report_parts
    UNION
    SELECT customer_id FROM affordability_insights
)
SELECT min(customer_id) AS first_customer, max(customer_id) AS last_customer
FROM (SELECT customer_id, (row_number() OVER (ORDER BY customer_id) - 1) // $slice_customers AS slice FROM customers)
GROUP BY slice
ORDER BY slice;

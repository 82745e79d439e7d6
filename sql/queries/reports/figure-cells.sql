-- The affordability figures in long form: one row per customer, range and
-- figure, for every month of the range (zero where nothing happened), for the
-- whole range (month NULL), and per core-dashboard bucket L2 over the range.
-- A figure is the sum of one direction of one bucket L1 (report_figures: income =
-- credits of `income`, essential = debits of `essentials`, non_essential =
-- debits of `non_essentials`); net = income - essential, month by month.
-- Declined transactions are already left out of monthly_category_totals.
--
-- Reads the tables of scope.sql, which must run first in the same transaction.
WITH contributions AS (
    SELECT client_id, customer_id, range_key, figure, bucket_l2, month,
           sum(total) AS total, sum(transaction_count) AS transaction_count
    FROM report_totals
    WHERE figure IS NOT NULL
    GROUP BY ALL
),
spine AS (
    SELECT s.client_id, s.customer_id, r.range_key, f.figure,
           unnest(generate_series(r.month_from, r.month_to, INTERVAL 1 MONTH))::DATE AS month
    FROM report_subjects s CROSS JOIN report_ranges r CROSS JOIN report_figures f
),
monthly AS (
    SELECT sp.client_id, sp.customer_id, sp.range_key, sp.figure, sp.month,
           coalesce(sum(c.total), 0)::DECIMAL(38,2) AS total,
           coalesce(sum(c.transaction_count), 0) AS transaction_count
    FROM spine sp
    LEFT JOIN contributions c
      ON c.client_id = sp.client_id AND c.customer_id = sp.customer_id AND c.range_key = sp.range_key AND c.figure = sp.figure AND c.month = sp.month
    GROUP BY ALL
),
with_net AS (
    SELECT * FROM monthly
    UNION ALL
    SELECT client_id, customer_id, range_key, 'net' AS figure, month,
           sum(CASE figure WHEN 'income' THEN total ELSE -total END)::DECIMAL(38,2) AS total,
           sum(transaction_count) AS transaction_count
    FROM monthly
    WHERE figure IN ('income', 'essential')
    GROUP BY client_id, customer_id, range_key, month
),
cells AS (
    SELECT client_id, customer_id, range_key, figure, strftime(month, '%Y-%m') AS month, NULL::VARCHAR AS bucket_l2,
           total, transaction_count
    FROM with_net
    UNION ALL
    SELECT client_id, customer_id, range_key, figure, NULL, NULL, sum(total), sum(transaction_count)
    FROM with_net
    GROUP BY client_id, customer_id, range_key, figure
    UNION ALL
    SELECT client_id, customer_id, range_key, figure, NULL, bucket_l2, sum(total), sum(transaction_count)
    FROM contributions
    GROUP BY client_id, customer_id, range_key, figure, bucket_l2
),
typed AS (
    SELECT client_id, customer_id, range_key, figure, month, bucket_l2,
           total::DECIMAL(38,2)::VARCHAR AS total, transaction_count::INTEGER AS transaction_count
    FROM cells
)
SELECT to_json(list(t ORDER BY t.client_id, t.customer_id, t.range_key, t.figure, t.month NULLS FIRST, t.bucket_l2 NULLS FIRST))::VARCHAR AS rows
FROM typed t;

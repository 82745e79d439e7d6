-- The affordability figures in long form: one row per customer, range and
-- figure, for every month of the range (zero where nothing happened), for the
-- whole range (month NULL), and per core-dashboard bucket L2 over the range.
-- A figure is the sum of one direction of one bucket L1 ($figures: income =
-- credits of `income`, essential = debits of `essentials`, non_essential =
-- debits of `non_essentials`); net = income - essential, month by month.
-- Declined transactions are already left out of monthly_category_totals.
--
-- $customers    JSON [{client_id, customer_id}]: one (the API, the CLI) or a chunk of all (the nightly job)
-- $ranges       JSON [{range_key, month_from, month_to}], months as first days
-- $account_ids  JSON array of account ids, or NULL for all of a customer's accounts
-- $currency     only transactions in this currency count
-- $criteria     JSON criterion rows of core-dashboard (category pair -> bucket pair)
-- $figures      JSON [{figure, bucket_l1, direction}]
WITH criteria AS (
    SELECT unnest(from_json($criteria::JSON,
        '[{"bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
figures AS (
    SELECT unnest(from_json($figures::JSON, '[{"figure":"VARCHAR","bucket_l1":"VARCHAR","direction":"VARCHAR"}]'), recursive := true)
),
ranges AS (
    SELECT unnest(from_json($ranges::JSON, '[{"range_key":"VARCHAR","month_from":"DATE","month_to":"DATE"}]'), recursive := true)
),
subjects AS (
    SELECT c.client_id, c.customer_id FROM customers c
    SEMI JOIN (SELECT unnest(from_json($customers::JSON, '[{"client_id":"VARCHAR","customer_id":"VARCHAR"}]'), recursive := true)) k
      ON k.client_id = c.client_id AND k.customer_id = c.customer_id
),
contributions AS (
    SELECT t.client_id, t.customer_id, r.range_key, f.figure, c.bucket_l2, t.month,
           sum(t.total) AS total, sum(t.transaction_count) AS transaction_count
    FROM monthly_category_totals t
    JOIN subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    JOIN criteria c ON c.category_l1 = t.category_l1 AND c.category_l2 = t.category_l2
    JOIN figures f ON f.bucket_l1 = c.bucket_l1 AND f.direction = t.direction
    JOIN ranges r ON t.month BETWEEN r.month_from AND r.month_to
    WHERE t.currency = $currency
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
    GROUP BY ALL
),
spine AS (
    SELECT s.client_id, s.customer_id, r.range_key, f.figure,
           unnest(generate_series(r.month_from, r.month_to, INTERVAL 1 MONTH))::DATE AS month
    FROM subjects s CROSS JOIN ranges r CROSS JOIN figures f
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
)
SELECT client_id, customer_id, range_key, figure, month, bucket_l2,
       total::DECIMAL(38,2)::VARCHAR AS total, transaction_count::INTEGER AS transaction_count
FROM cells
ORDER BY client_id, customer_id, range_key, figure, month NULLS FIRST, bucket_l2 NULLS FIRST;

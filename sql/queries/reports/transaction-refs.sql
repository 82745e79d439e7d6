-- The transactions behind each customer's report in one range, as the
-- report's provenance: every transaction the report's figures could count
-- (not declined, in $currency and the selected accounts, in a month of the
-- range), with its identity and version, and the figure, bucket L2 and month
-- it counts towards (figure NULL for one in no figure, a transfer say), and
-- its amount. One JSON text per customer: an array of
--   [transaction_id, occurred_at (version), event_id (version), figure, bucket_l2, month, amount]
-- in transaction_id order, so the same store gives the same bytes.
-- Parameters: $refs_range (a range_key of scope.sql), $account_ids,
-- $currency, $criteria (as in scope.sql). Reads the tables of scope.sql,
-- which must run first in the same transaction.
WITH criteria AS (
    SELECT unnest(from_json($criteria::JSON,
        '[{"bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
-- The figure and bucket L2 a category pair and direction count towards, as
-- the JSON text of those two array elements; a pair in no figure has none.
counted AS (
    SELECT c.category_l1, c.category_l2, f.direction, to_json(f.figure)::VARCHAR || ',' || coalesce(to_json(c.bucket_l2)::VARCHAR, 'null') AS figure_json
    FROM criteria c JOIN report_figures f ON f.bucket_l1 = c.bucket_l1
),
-- The range's months (a transaction's month is the first day of its month), each with its text.
months AS (
    SELECT month, strftime(month, '%Y-%m') AS month_text
    FROM (
        SELECT unnest(generate_series(month_from, month_to, INTERVAL 1 MONTH))::DATE AS month
        FROM report_ranges WHERE range_key = $refs_range
    )
),
-- Each transaction's array written as JSON text here, so that a customer's
-- is only their arrays joined.
refs AS (
    SELECT t.client_id, t.customer_id, t.transaction_id,
           concat('[', to_json(t.transaction_id)::VARCHAR,
                  ',"', strftime(t.occurred_at, '%Y-%m-%dT%H:%M:%S.%gZ'), '",',
                  to_json(t.event_id)::VARCHAR, ',',
                  coalesce(k.figure_json, 'null,null'),
                  ',"', m.month_text, '","', t.amount::VARCHAR, '"]') AS ref
    FROM transactions t
    JOIN report_subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    JOIN months m ON m.month = t.month
    LEFT JOIN counted k ON k.category_l1 = t.category_l1 AND k.category_l2 = t.category_l2 AND k.direction = t.credit_debit_indicator
    WHERE t.status <> 'declined'
      AND t.currency = $currency
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
),
per_customer AS (
    SELECT client_id, customer_id, string_agg(ref, ',' ORDER BY transaction_id) AS refs FROM refs GROUP BY client_id, customer_id
)
SELECT s.client_id, s.customer_id, '[' || coalesce(p.refs, '') || ']' AS refs
FROM report_subjects s
LEFT JOIN per_customer p ON p.client_id = s.client_id AND p.customer_id = s.customer_id
ORDER BY s.client_id, s.customer_id;

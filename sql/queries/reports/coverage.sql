-- Data sufficiency per customer and range: the months of the range that hold
-- any (non-declined) transaction of the selected accounts and currency, the
-- months with no income (no credit in the income figure's bucket) and the
-- months with no expenditure at all (no debit in the essential or
-- non-essential buckets). Month lists are YYYY-MM, in order.
-- Parameters: $account_ids, $criteria, $currency, $customers, $figures, $ranges.
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
activity AS (
    SELECT t.client_id, t.customer_id, r.range_key, t.month,
           bool_or(f.figure = 'income') AS has_income,
           bool_or(f.figure IN ('essential', 'non_essential')) AS has_expenditure
    FROM monthly_category_totals t
    JOIN subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    JOIN ranges r ON t.month BETWEEN r.month_from AND r.month_to
    LEFT JOIN criteria c ON c.category_l1 = t.category_l1 AND c.category_l2 = t.category_l2
    LEFT JOIN figures f ON f.bucket_l1 = c.bucket_l1 AND f.direction = t.direction
    WHERE t.currency = $currency
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
    GROUP BY ALL
),
spine AS (
    SELECT s.client_id, s.customer_id, r.range_key,
           unnest(generate_series(r.month_from, r.month_to, INTERVAL 1 MONTH))::DATE AS month
    FROM subjects s CROSS JOIN ranges r
)
SELECT sp.client_id, sp.customer_id, sp.range_key,
       coalesce(list(strftime(sp.month, '%Y-%m') ORDER BY sp.month) FILTER (WHERE a.month IS NOT NULL), [])
           AS months_with_data,
       coalesce(list(strftime(sp.month, '%Y-%m') ORDER BY sp.month) FILTER (WHERE NOT coalesce(a.has_income, false)), [])
           AS months_without_income,
       coalesce(list(strftime(sp.month, '%Y-%m') ORDER BY sp.month) FILTER (WHERE NOT coalesce(a.has_expenditure, false)), [])
           AS months_without_expenditure
FROM spine sp
LEFT JOIN activity a ON a.client_id = sp.client_id AND a.customer_id = sp.customer_id AND a.range_key = sp.range_key AND a.month = sp.month
GROUP BY sp.client_id, sp.customer_id, sp.range_key
ORDER BY sp.client_id, sp.customer_id, sp.range_key;

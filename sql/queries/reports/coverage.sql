-- Data sufficiency per customer and range: the months of the range that hold
-- any (non-declined) transaction of the selected accounts and currency, the
-- months with no income (no credit in the income figure's bucket) and the
-- months with no expenditure at all (no debit in the essential or
-- non-essential buckets). Month lists are YYYY-MM, in order.
-- Reads the tables of scope.sql, which must run first in the same transaction.
WITH activity AS (
    SELECT client_id, customer_id, range_key, month,
           bool_or(figure = 'income') AS has_income,
           bool_or(figure IN ('essential', 'non_essential')) AS has_expenditure
    FROM report_totals
    GROUP BY ALL
),
spine AS (
    SELECT s.client_id, s.customer_id, r.range_key,
           unnest(generate_series(r.month_from, r.month_to, INTERVAL 1 MONTH))::DATE AS month
    FROM report_subjects s CROSS JOIN report_ranges r
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

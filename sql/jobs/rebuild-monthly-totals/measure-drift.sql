-- One slice of the drift check (slices.sql): the rows where the incrementally
-- kept table and a from-scratch computation disagree, for the customers
-- from $from_customer up to, not including, $to_customer (no end when
-- null). There should be none. Parameters: $from_customer, $to_customer,
-- $sample_rows (how many drifted rows the sample holds, the first in
-- customer order).
-- The kept rows are summed by key first: a key kept twice, even with the
-- right figures each time, is drift (its figures count twice in every read
-- that sums them).
WITH kept AS (
    SELECT client_id, customer_id, account_id, month, currency, category_l1, category_l2, direction,
           sum(total) AS total, sum(transaction_count) AS transaction_count
    FROM monthly_category_totals
    WHERE customer_id >= $from_customer AND ($to_customer IS NULL OR customer_id < $to_customer)
    GROUP BY ALL
), fresh AS (
    SELECT * FROM monthly_category_totals_computed
    WHERE customer_id >= $from_customer AND ($to_customer IS NULL OR customer_id < $to_customer)
), diff AS (
    SELECT coalesce(k.client_id, f.client_id) AS client_id,
           coalesce(k.customer_id, f.customer_id) AS customer_id,
           strftime(coalesce(k.month, f.month), '%Y-%m') AS month,
           coalesce(k.account_id, f.account_id) AS account_id,
           coalesce(k.category_l1, f.category_l1) || '/' || coalesce(k.category_l2, f.category_l2) AS category,
           coalesce(k.direction, f.direction) AS direction,
           k.total::VARCHAR AS kept_total, f.total::VARCHAR AS fresh_total,
           k.transaction_count AS kept_count, f.transaction_count AS fresh_count
    FROM kept k
    FULL OUTER JOIN fresh f
      ON k.client_id = f.client_id AND k.customer_id = f.customer_id AND k.account_id = f.account_id AND k.month = f.month
     AND k.currency = f.currency AND k.category_l1 = f.category_l1 AND k.category_l2 = f.category_l2
     AND k.direction = f.direction
    WHERE k.total IS DISTINCT FROM f.total OR k.transaction_count IS DISTINCT FROM f.transaction_count
)
SELECT (SELECT count(*) FROM diff)::INTEGER AS drift_rows,
       (SELECT count(*) FROM fresh)::INTEGER AS rows_checked,
       (SELECT to_json(list(d)) FROM (SELECT * FROM diff ORDER BY customer_id, client_id, month, account_id, category, direction, kept_total, fresh_total LIMIT $sample_rows) d)::VARCHAR AS sample;

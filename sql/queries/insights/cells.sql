-- Every insight figure in long form: per customer, range and insight key,
-- the sum and count of its transactions over the whole range (month NULL)
-- and, for every key but the commitments' (shown without their months; the
-- streams' months make the verified and unverified income's), for each month
-- that has any (month YYYY-MM). Months without any
-- are zero; the assembler fills them in. Amounts are DECIMAL(38,2) text.
-- The rows come as one JSON array (see queryJsonRows), in the order below.
-- Reads the tables of queries/insights/scope, which must run first in the same transaction.
-- Parameters: none.
--
-- A month's sum is the same in every range that holds the month, so each
-- customer, key and month is summed once from the transactions, and the
-- ranges add up those few sums rather than the transactions again.
WITH monthly AS (
    SELECT client_id, customer_id, key, month, sum(amount) AS total, count(*) AS transaction_count
    FROM (SELECT client_id, customer_id, month, amount, unnest(keys) AS key FROM insight_tx)
    GROUP BY client_id, customer_id, key, month
),
in_range AS (
    SELECT m.*, r.range_key
    FROM monthly m
    JOIN insight_ranges r ON m.month BETWEEN r.month_from AND r.month_to
),
cells AS (
    SELECT client_id, customer_id, range_key, key, NULL::VARCHAR AS month,
           sum(total)::DECIMAL(38,2)::VARCHAR AS total, sum(transaction_count)::INTEGER AS transaction_count
    FROM in_range
    GROUP BY client_id, customer_id, range_key, key
    UNION ALL
    SELECT client_id, customer_id, range_key, key, strftime(month, '%Y-%m') AS month,
           total::DECIMAL(38,2)::VARCHAR AS total, transaction_count::INTEGER AS transaction_count
    FROM in_range
    WHERE key NOT LIKE 'commitment:%'
)
SELECT to_json(list(c ORDER BY c.client_id, c.customer_id, c.range_key, c.key, c.month NULLS FIRST))::VARCHAR AS rows
FROM cells c;

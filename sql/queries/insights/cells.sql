-- Every insight figure in long form: per customer, range and insight key,
-- the sum and count of its transactions over the whole range (month NULL)
-- and, for every key but the commitments' (shown without their months; the
-- streams' months make the verified and unverified income's), for each month
-- that has any (month YYYY-MM). Months without any
-- are zero; the assembler fills them in. Amounts are DECIMAL(38,2) text.
-- The rows come as one JSON array (see queryJsonRows), in the order below.
-- Reads the tables of queries/insights/scope, which must run first in the same transaction.
-- Parameters: none.
WITH keyed AS (
    SELECT tx.client_id, tx.customer_id, r.range_key, tx.month, tx.amount, unnest(tx.keys) AS key
    FROM insight_tx tx
    JOIN insight_ranges r ON tx.month BETWEEN r.month_from AND r.month_to
),
cells AS (
    SELECT client_id, customer_id, range_key, key, NULL::VARCHAR AS month,
           sum(amount)::DECIMAL(38,2)::VARCHAR AS total, count(*)::INTEGER AS transaction_count
    FROM keyed
    GROUP BY client_id, customer_id, range_key, key
    UNION ALL
    SELECT client_id, customer_id, range_key, key, strftime(month, '%Y-%m') AS month,
           sum(amount)::DECIMAL(38,2)::VARCHAR AS total, count(*)::INTEGER AS transaction_count
    FROM keyed
    WHERE key NOT LIKE 'commitment:%'
    GROUP BY client_id, customer_id, range_key, key, month
)
SELECT to_json(list(c ORDER BY c.client_id, c.customer_id, c.range_key, c.key, c.month NULLS FIRST))::VARCHAR AS rows
FROM cells c;

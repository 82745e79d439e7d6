-- Keeps the monthly totals by adding the batch's deltas rather than
-- recomputing whole customer-months: each winner that replaces a stored row
-- takes that row out of its total, each winning upsert adds itself. The same
-- formula as monthly_totals_of (migration 007): per account, month, currency,
-- category pair and direction, the sum and count of the transactions that are
-- not declined. A total whose count falls to zero is removed; the nightly
-- rebuild checks that the kept totals equal the formula. Runs after
-- judge-transactions.sql and before the stored rows are replaced. No parameters.
MERGE INTO monthly_category_totals m
USING (
    SELECT client_id, customer_id, account_id, month, currency, category_l1, category_l2, direction,
           sum(amount) AS total, sum(n)::INTEGER AS n
    FROM (
        SELECT t.client_id, t.customer_id, t.account_id, t.month, t.currency, t.category_l1, t.category_l2,
               t.credit_debit_indicator AS direction, -t.amount AS amount, -1 AS n
        FROM transactions t
        SEMI JOIN (SELECT client_id, customer_id, transaction_id FROM tx_events WHERE winner AND existed) w
          ON t.client_id = w.client_id AND t.customer_id = w.customer_id AND t.transaction_id = w.transaction_id
        WHERE t.status <> 'declined'
        UNION ALL
        SELECT s.client_id, s.customer_id, s.account_id, date_trunc('month', s.date_time::TIMESTAMP)::DATE, s.currency,
               s.category_l1, s.category_l2, s.credit_debit_indicator, s.amount::DECIMAL(18,2), 1
        FROM stage_transactions s
        SEMI JOIN (SELECT seq FROM tx_events WHERE winner AND op = 'upsert') w ON w.seq = s.seq
        WHERE s.status <> 'declined'
    )
    GROUP BY ALL
) d
ON m.client_id = d.client_id AND m.customer_id = d.customer_id AND m.account_id = d.account_id AND m.month = d.month
   AND m.currency = d.currency AND m.category_l1 = d.category_l1 AND m.category_l2 = d.category_l2 AND m.direction = d.direction
WHEN MATCHED AND m.transaction_count + d.n = 0 THEN DELETE
WHEN MATCHED THEN UPDATE SET total = m.total + d.total, transaction_count = m.transaction_count + d.n
WHEN NOT MATCHED AND d.n <> 0 THEN INSERT (client_id, customer_id, account_id, month, currency, category_l1, category_l2, direction, total, transaction_count)
    VALUES (d.client_id, d.customer_id, d.account_id, d.month, d.currency, d.category_l1, d.category_l2, d.direction, d.total, d.n);

-- Recompute every customer-month this batch touched, from the transactions.
-- The transactions are filtered before they are grouped, so that only the
-- row groups of the batch's customers are read.
CREATE OR REPLACE TEMP TABLE batch_months AS SELECT DISTINCT client_id, customer_id, month FROM batch_affected_months;

DELETE FROM monthly_category_totals m USING batch_months a
WHERE m.client_id = a.client_id AND m.customer_id = a.customer_id AND m.month = a.month;

INSERT INTO monthly_category_totals
SELECT t.client_id, t.customer_id, t.account_id, t.month, t.currency, t.category_l1, t.category_l2,
       t.credit_debit_indicator, sum(t.amount)::DECIMAL(18,2), count(*)::INTEGER
FROM transactions t
SEMI JOIN batch_months a ON t.client_id = a.client_id AND t.customer_id = a.customer_id AND t.month = a.month
WHERE t.status <> 'declined'
GROUP BY ALL;

DELETE FROM batch_affected_months;

-- Recompute every customer-month this batch touched, from the transactions,
-- with the one monthly totals formula (monthly_totals_of, migration 007).
-- Parameters: none (reads batch_affected_months).
CREATE OR REPLACE TEMP TABLE batch_months AS SELECT DISTINCT client_id, customer_id, month FROM batch_affected_months;

DELETE FROM monthly_category_totals m USING batch_months a
WHERE m.client_id = a.client_id AND m.customer_id = a.customer_id AND m.month = a.month;

INSERT INTO monthly_category_totals SELECT * FROM monthly_totals_of('batch_months');

DELETE FROM batch_affected_months;

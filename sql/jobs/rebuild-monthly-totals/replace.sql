-- Replaces the stored monthly totals with the ones the view computes from the
-- transactions, in the job's one transaction. The rows are written in
-- customer order, so that each customer's rows sit together and a customer's
-- read skips every other row group by its min/max statistics (a lookup, not
-- a scan of the whole table).
DELETE FROM monthly_category_totals;
INSERT INTO monthly_category_totals SELECT * FROM monthly_category_totals_computed ORDER BY client_id, customer_id, month;

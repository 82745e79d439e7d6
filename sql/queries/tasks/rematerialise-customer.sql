-- Recompute every monthly total of one customer from their transactions.
DELETE FROM monthly_category_totals WHERE customer_id = $customer_id;
INSERT INTO monthly_category_totals
SELECT * FROM monthly_category_totals_computed WHERE customer_id = $customer_id;

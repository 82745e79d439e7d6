-- Recompute every monthly total of one customer from their transactions.
-- Parameters: $client_id, $customer_id.
DELETE FROM monthly_category_totals WHERE client_id = $client_id AND customer_id = $customer_id;
INSERT INTO monthly_category_totals
SELECT * FROM monthly_category_totals_computed WHERE client_id = $client_id AND customer_id = $customer_id;

-- Writes one slice of the monthly totals as the view computes them from the
-- transactions (customers from $from_customer up to, not including,
-- $to_customer; no end when null). The slices go in customer order and each
-- is written in customer order, so that each customer's rows sit together
-- and a customer's read skips every other row group by its min/max
-- statistics (a lookup, not a scan of the whole table).
-- Parameters: $from_customer, $to_customer.
INSERT INTO monthly_category_totals
SELECT * FROM monthly_category_totals_computed
WHERE customer_id >= $from_customer AND ($to_customer IS NULL OR customer_id < $to_customer)
ORDER BY customer_id, client_id, month;

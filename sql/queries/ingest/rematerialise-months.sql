-- Recompute every customer-month this batch touched, from the transactions.
DELETE FROM monthly_category_totals m USING (SELECT DISTINCT customer_id, month FROM batch_affected_months) a
WHERE m.customer_id = a.customer_id AND m.month = a.month;

INSERT INTO monthly_category_totals
SELECT v.*
FROM monthly_category_totals_computed v
SEMI JOIN (SELECT DISTINCT customer_id, month FROM batch_affected_months) a
       ON v.customer_id = a.customer_id AND v.month = a.month;

DELETE FROM batch_affected_months;

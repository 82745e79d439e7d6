-- New customers only: the first event of a customer fixes its client and secret.
INSERT INTO customers (customer_id, client_id, hosted, secret_hash)
SELECT s.customer_id, s.client_id, s.hosted, s.secret_hash
FROM stage_customers s
WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.customer_id = s.customer_id);

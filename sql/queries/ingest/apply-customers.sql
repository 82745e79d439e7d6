-- New customers only: the first event of a customer fixes whether it is
-- hosted and its secret. Nothing later changes either (an application does
-- not make a customer hosted): a secret is never dropped by another event.
INSERT INTO customers (client_id, customer_id, hosted, secret_hash)
SELECT s.client_id, s.customer_id, s.hosted, s.secret_hash
FROM stage_customers s
WHERE NOT EXISTS (SELECT 1 FROM customers c WHERE c.client_id = s.client_id AND c.customer_id = s.customer_id);

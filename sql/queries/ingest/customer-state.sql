-- What a batch must know of its customers before it writes, in one read:
-- each one that exists, with its secret hash (kind 'customer'), and each
-- one's deletion, with its version (kind 'tombstone').
-- $client_ids and $customer_ids are parallel lists, one pair per customer.
WITH k AS (SELECT unnest($client_ids::VARCHAR[]) AS client_id, unnest($customer_ids::VARCHAR[]) AS customer_id)
SELECT 'customer' AS kind, c.client_id, c.customer_id, c.secret_hash, NULL::VARCHAR AS occurred_at, NULL::VARCHAR AS event_id
FROM customers c SEMI JOIN k ON k.client_id = c.client_id AND k.customer_id = c.customer_id
UNION ALL
SELECT 'tombstone', d.client_id, d.record_id, NULL, d.occurred_at::VARCHAR, d.event_id
FROM tombstones d SEMI JOIN k ON k.client_id = d.client_id AND k.customer_id = d.record_id
WHERE d.record_type = 'customer';

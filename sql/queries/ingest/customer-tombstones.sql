SELECT record_id AS customer_id, occurred_at, event_id
FROM tombstones
WHERE record_type = 'customer' AND record_id IN (SELECT unnest($customer_ids::VARCHAR[]));

-- Deletions of the batch's customers: $client_ids and $customer_ids are parallel lists, one pair per customer.
SELECT d.client_id, d.record_id AS customer_id, d.occurred_at, d.event_id
FROM tombstones d
SEMI JOIN (SELECT unnest($client_ids::VARCHAR[]) AS client_id, unnest($customer_ids::VARCHAR[]) AS customer_id) k
  ON k.client_id = d.client_id AND k.customer_id = d.record_id
WHERE d.record_type = 'customer';

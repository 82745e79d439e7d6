-- The batch's customers that exist: $client_ids and $customer_ids are parallel lists, one pair per customer.
SELECT c.client_id, c.customer_id, c.secret_hash
FROM customers c
SEMI JOIN (SELECT unnest($client_ids::VARCHAR[]) AS client_id, unnest($customer_ids::VARCHAR[]) AS customer_id) k
  ON k.client_id = c.client_id AND k.customer_id = c.customer_id;

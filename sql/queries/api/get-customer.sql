-- One customer of a client, with whether it is hosted and its secret's hash.
-- Parameters: $client_id, $customer_id.
SELECT customer_id, client_id, hosted, secret_hash
FROM customers
WHERE client_id = $client_id AND customer_id = $customer_id;

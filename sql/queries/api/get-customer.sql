SELECT customer_id, client_id, hosted, secret_hash
FROM customers
WHERE client_id = $client_id AND customer_id = $customer_id;

SELECT customer_id, client_id, hosted, secret_hash
FROM customers
WHERE customer_id = $customer_id;

-- The clients that have a customer of this id: two clients may use the same one.
-- Parameters: $customer_id.
SELECT client_id FROM customers WHERE customer_id = $customer_id ORDER BY client_id;

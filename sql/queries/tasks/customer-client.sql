SELECT client_id FROM customers WHERE customer_id = $customer_id;

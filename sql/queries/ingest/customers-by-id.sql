SELECT customer_id, client_id FROM customers WHERE customer_id IN (SELECT unnest($customer_ids::VARCHAR[]));

-- Every customer, in the order the nightly job takes them in chunks.
SELECT client_id, customer_id FROM customers ORDER BY client_id, customer_id;

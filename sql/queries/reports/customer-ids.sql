-- Every customer, in the order the nightly job takes them in chunks.
SELECT customer_id FROM customers ORDER BY customer_id;

-- Removes a customer and every row of their data, then leaves a tombstone so
-- that older events arriving later cannot bring any of it back.
DELETE FROM transactions WHERE customer_id = $customer_id;
DELETE FROM monthly_category_totals WHERE customer_id = $customer_id;
DELETE FROM balances WHERE customer_id = $customer_id;
DELETE FROM accounts WHERE customer_id = $customer_id;
DELETE FROM customer_applications WHERE customer_id = $customer_id;
DELETE FROM tombstones WHERE customer_id = $customer_id AND record_type <> 'customer';
DELETE FROM batch_affected_months WHERE customer_id = $customer_id;
DELETE FROM affordability_reports WHERE customer_id = $customer_id;
DELETE FROM tasks WHERE customer_id = $customer_id;
-- Their earlier webhooks go too (their bodies name the customer); the
-- customers.deleted notice is enqueued after this, in the same transaction.
DELETE FROM webhook_attempts WHERE delivery_id IN (SELECT delivery_id FROM webhook_outbox WHERE customer_id = $customer_id);
DELETE FROM webhook_outbox WHERE customer_id = $customer_id;
-- Bad input that named them holds their data too.
DELETE FROM dead_letters
WHERE message_key = $customer_id OR contains(raw, '"customer_id":"' || $customer_id || '"');
DELETE FROM customers WHERE customer_id = $customer_id;
DELETE FROM tombstones WHERE record_type = 'customer' AND record_id = $customer_id;
INSERT INTO tombstones (record_type, customer_id, record_id, occurred_at, event_id)
VALUES ('customer', $customer_id, $customer_id, $occurred_at::TIMESTAMP, $event_id);

-- Removes a customer of one client and every row of their data, then leaves
-- a tombstone so that older events arriving later cannot bring any of it
-- back. Another client's customer with the same id is left alone.
-- Parameters: $client_id, $customer_id, $event_id, $occurred_at.
DELETE FROM transactions WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM monthly_category_totals WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM balances WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM accounts WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM customer_applications WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM tombstones WHERE client_id = $client_id AND customer_id = $customer_id AND record_type <> 'customer';
DELETE FROM transaction_deletions WHERE client_id = $client_id AND customer_id = $customer_id;
-- (Reports stored whole by an earlier version are all in parts once the store is open: see 013_report_parts.sql.)
DELETE FROM affordability_report_parts WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM affordability_insights WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM tasks WHERE client_id = $client_id AND customer_id = $customer_id;
-- Their earlier webhooks go too (their bodies name the customer); the
-- customers.deleted notice is enqueued after this, in the same transaction.
DELETE FROM webhook_attempts WHERE delivery_id IN (
    SELECT delivery_id FROM webhook_outbox WHERE client_id = $client_id AND customer_id = $customer_id);
DELETE FROM webhook_outbox WHERE client_id = $client_id AND customer_id = $customer_id;
-- Bad input that named them holds their data too; input that names another
-- client is that client's customer and stays.
DELETE FROM dead_letters
WHERE (message_key = $customer_id OR contains(raw, '"customer_id":"' || $customer_id || '"'))
  AND (contains(raw, '"client_id":"' || $client_id || '"') OR NOT contains(raw, '"client_id":'));
DELETE FROM customers WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM tombstones WHERE record_type = 'customer' AND client_id = $client_id AND record_id = $customer_id;
INSERT INTO tombstones (record_type, client_id, customer_id, record_id, occurred_at, event_id)
VALUES ('customer', $client_id, $customer_id, $customer_id, $occurred_at::TIMESTAMP, $event_id);

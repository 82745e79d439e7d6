-- Removes a customer of one client and every row of their data that the
-- deletion is newer than, then leaves a tombstone so that older events
-- arriving later cannot bring any of it back. Another client's customer with
-- the same id is left alone.
--
-- A record whose version (occurred_at, event_id) is newer than the deletion
-- stays, as it would had it arrived after the deletion: the end state does
-- not depend on arrival order. So do the balances of an account that stays,
-- and the customer itself while any of their records stays (with the secret
-- it had, which keeps guarding those records). The monthly totals are summed
-- again from the transactions that stay. What is derived from the customer's
-- data or names them (reports, insights, tasks, webhooks, dead letters) goes
-- whole: the nightly jobs derive it again from what stays.
-- Parameters: $client_id, $customer_id, $event_id, $occurred_at.
DELETE FROM transactions WHERE client_id = $client_id AND customer_id = $customer_id
  AND {'o': occurred_at, 'e': event_id} <= {'o': $occurred_at::TIMESTAMP, 'e': $event_id};
DELETE FROM monthly_category_totals WHERE client_id = $client_id AND customer_id = $customer_id;
INSERT INTO monthly_category_totals
WITH kept AS (SELECT * FROM transactions WHERE client_id = $client_id AND customer_id = $customer_id)
SELECT * FROM monthly_totals_in('kept');
DELETE FROM accounts WHERE client_id = $client_id AND customer_id = $customer_id
  AND {'o': occurred_at, 'e': event_id} <= {'o': $occurred_at::TIMESTAMP, 'e': $event_id};
DELETE FROM balances b WHERE b.client_id = $client_id AND b.customer_id = $customer_id
  AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.client_id = b.client_id AND a.customer_id = b.customer_id AND a.account_id = b.account_id);
DELETE FROM customer_applications WHERE client_id = $client_id AND customer_id = $customer_id
  AND {'o': occurred_at, 'e': event_id} <= {'o': $occurred_at::TIMESTAMP, 'e': $event_id};
DELETE FROM tombstones WHERE client_id = $client_id AND customer_id = $customer_id AND record_type <> 'customer'
  AND {'o': occurred_at, 'e': event_id} <= {'o': $occurred_at::TIMESTAMP, 'e': $event_id};
DELETE FROM transaction_deletions d WHERE d.client_id = $client_id AND d.customer_id = $customer_id
  AND NOT EXISTS (SELECT 1 FROM tombstones t WHERE t.record_type = 'transaction' AND t.client_id = d.client_id
                    AND t.customer_id = d.customer_id AND t.record_id = d.transaction_id);
-- (Reports stored whole by an earlier version are all in parts once the store is open: see 013_report_parts.sql.)
DELETE FROM affordability_report_parts WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM affordability_insights WHERE client_id = $client_id AND customer_id = $customer_id;
DELETE FROM tasks WHERE client_id = $client_id AND customer_id = $customer_id;
-- An ingestion task spans customers: it loses the entry that names them (and
-- why their transactions were refused), and keeps the others'.
UPDATE tasks SET detail = json_merge_patch(detail, json_object('customer_ids', coalesce((
    SELECT json_group_array(e) FROM (SELECT unnest(from_json(tasks.detail->'customer_ids', '["JSON"]')) AS e) named
    WHERE coalesce(e->>'customer_id', e->>'customer_idempotent_identifier') IS DISTINCT FROM $customer_id), '[]'::JSON)))
WHERE client_id = $client_id AND task_type = 'ingestion'
  AND list_contains(list_transform(from_json(detail->'customer_ids', '["JSON"]'), e -> coalesce(e->>'customer_id', e->>'customer_idempotent_identifier')), $customer_id);
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
DELETE FROM customers c WHERE c.client_id = $client_id AND c.customer_id = $customer_id
  AND NOT EXISTS (SELECT 1 FROM transactions t WHERE t.client_id = c.client_id AND t.customer_id = c.customer_id)
  AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.client_id = c.client_id AND a.customer_id = c.customer_id)
  AND NOT EXISTS (SELECT 1 FROM customer_applications p WHERE p.client_id = c.client_id AND p.customer_id = c.customer_id)
  AND NOT EXISTS (SELECT 1 FROM tombstones d WHERE d.record_type <> 'customer' AND d.client_id = c.client_id AND d.customer_id = c.customer_id);
DELETE FROM tombstones WHERE record_type = 'customer' AND client_id = $client_id AND record_id = $customer_id;
INSERT INTO tombstones (record_type, client_id, customer_id, record_id, occurred_at, event_id)
VALUES ('customer', $client_id, $customer_id, $customer_id, $occurred_at::TIMESTAMP, $event_id);

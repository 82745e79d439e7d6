-- One delivery per active subscription of the customer's own client that
-- chose the event; nothing for a cause already enqueued (a replay).
-- Parameters: $body, $client_id, $customer_id, $event, $event_key, $now.
INSERT INTO webhook_outbox (delivery_id, event_key, event, client_id, customer_id, subscription_id, body, status, attempts,
                            next_attempt_at, created_at, updated_at)
SELECT gen_random_uuid()::VARCHAR, $event_key::VARCHAR, $event::VARCHAR, $client_id::VARCHAR, $customer_id::VARCHAR, s.subscription_id,
       $body::VARCHAR, 'pending', 0, $now::TIMESTAMP, $now::TIMESTAMP, $now::TIMESTAMP
FROM webhook_subscriptions s
WHERE s.client_id = $client_id::VARCHAR
  AND s.active
  AND list_contains(s.events, $event::VARCHAR)
  AND NOT EXISTS (
      SELECT 1 FROM webhook_outbox o
      WHERE o.event_key = $event_key::VARCHAR AND o.event = $event::VARCHAR AND o.subscription_id = s.subscription_id)
RETURNING delivery_id, subscription_id;

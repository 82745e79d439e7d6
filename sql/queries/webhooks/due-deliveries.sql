-- Deliveries whose next attempt is due, oldest first, with what sending
-- needs; those already being sent by this process (a JSON list: an empty
-- list parameter cannot be bound) are left out.
-- Parameters: $in_flight, $limit, $now.
SELECT o.delivery_id, o.event, o.client_id, o.customer_id, o.subscription_id, o.body, o.attempts,
       s.url, s.headers::VARCHAR AS headers, s.secret, s.active
FROM webhook_outbox o
JOIN webhook_subscriptions s ON s.subscription_id = o.subscription_id
WHERE o.status = 'pending'
  AND o.next_attempt_at <= $now::TIMESTAMP
  AND o.delivery_id NOT IN (SELECT unnest(from_json($in_flight::VARCHAR, '["VARCHAR"]')))
ORDER BY o.next_attempt_at, o.created_at
LIMIT $limit::INTEGER;

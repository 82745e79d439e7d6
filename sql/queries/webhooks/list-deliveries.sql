-- The delivery log, newest first; `only_failed` keeps the ones that gave up.
-- Parameters: $limit, $only_failed.
SELECT o.delivery_id, o.event, o.client_id, o.customer_id, o.subscription_id, s.url, o.status, o.attempts,
       o.last_status_code, o.last_error, o.next_attempt_at, o.created_at, o.updated_at
FROM webhook_outbox o
LEFT JOIN webhook_subscriptions s ON s.subscription_id = o.subscription_id
WHERE (NOT $only_failed OR o.status = 'failed')
ORDER BY o.created_at DESC, o.delivery_id
LIMIT $limit::INTEGER;

-- Webhook subscriptions, of one client or (with $client_id NULL) of all, without their secrets.
SELECT subscription_id, client_id, url, events, headers::VARCHAR AS headers, secret IS NOT NULL AS signed, active, created_at, updated_at
FROM webhook_subscriptions
WHERE $client_id::VARCHAR IS NULL OR client_id = $client_id::VARCHAR
ORDER BY client_id, created_at, subscription_id;

-- A webhook subscription as a client-state change holds it.
-- Parameters: $subscription_id, $client_id, $url, $events, $headers, $secret, $active, $created_at, $updated_at.
INSERT INTO webhook_subscriptions (subscription_id, client_id, url, events, headers, secret, active, created_at, updated_at)
VALUES ($subscription_id, $client_id, $url, $events::VARCHAR[], $headers::JSON, $secret::VARCHAR, $active, $created_at::TIMESTAMP, $updated_at::TIMESTAMP)
ON CONFLICT (subscription_id) DO UPDATE SET url = excluded.url, events = excluded.events, headers = excluded.headers,
    secret = excluded.secret, active = excluded.active, updated_at = excluded.updated_at;

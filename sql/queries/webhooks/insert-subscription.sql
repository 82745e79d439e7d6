-- Stores a new, active webhook subscription of a client.
-- Parameters: $client_id, $events, $headers, $now, $secret, $subscription_id, $url.
INSERT INTO webhook_subscriptions (subscription_id, client_id, url, events, headers, secret, active, created_at, updated_at)
VALUES ($subscription_id, $client_id, $url, $events::VARCHAR[], $headers::JSON, $secret::VARCHAR, true, $now::TIMESTAMP, $now::TIMESTAMP);

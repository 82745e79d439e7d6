-- Turns a webhook subscription on or off; returns its id if it exists.
-- Parameters: $active, $now, $subscription_id.
UPDATE webhook_subscriptions
SET active = $active, updated_at = $now::TIMESTAMP
WHERE subscription_id = $subscription_id
RETURNING subscription_id;

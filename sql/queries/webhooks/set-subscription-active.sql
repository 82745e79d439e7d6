UPDATE webhook_subscriptions
SET active = $active, updated_at = $now::TIMESTAMP
WHERE subscription_id = $subscription_id
RETURNING subscription_id;

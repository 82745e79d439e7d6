-- A webhook subscription removed by a client-state change (a tombstone).
-- Parameters: $subscription_id.
DELETE FROM webhook_subscriptions WHERE subscription_id = $subscription_id;

-- The signing secret of one webhook subscription (NULL when unsigned), for
-- a client-state change that must carry the whole record; no row when there
-- is no such subscription.
-- Parameters: $subscription_id.
SELECT secret
FROM webhook_subscriptions
WHERE subscription_id = $subscription_id;

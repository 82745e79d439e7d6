-- Whether a client-level record is stored: the precondition of a change
-- that expects it absent (a creation) or present (an update).
-- Parameters: $kind (api-client, bucket-definition, webhook-subscription), $id.
SELECT CASE $kind
    WHEN 'api-client' THEN EXISTS (SELECT 1 FROM api_clients WHERE client_id = $id)
    WHEN 'bucket-definition' THEN EXISTS (SELECT 1 FROM bucket_definitions WHERE bucket_id = $id)
    ELSE EXISTS (SELECT 1 FROM webhook_subscriptions WHERE subscription_id = $id)
END AS present;

-- The customer's latest refresh with this provider since $since that has not
-- failed: a second request within the hour gets it back instead of a new one.
-- Parameters: $client_id, $customer_id, $provider, $since.
SELECT task_id
FROM tasks
WHERE task_type = 'refresh'
  AND client_id = $client_id
  AND customer_id = $customer_id
  AND provider = $provider
  AND status <> 'Failed'
  AND created_at >= $since::TIMESTAMP
ORDER BY created_at DESC
LIMIT 1;

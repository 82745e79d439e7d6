-- The customer's transactions deleted after $updated_after (when each
-- deletion was written), oldest first: the transaction list's
-- metadata.deleted.
-- Parameters: $client_id, $customer_id, $updated_after.
SELECT transaction_id, updated_at::VARCHAR AS updated_at
FROM transaction_deletions
WHERE client_id = $client_id
  AND customer_id = $customer_id
  AND updated_at > $updated_after::TIMESTAMP
ORDER BY updated_at, transaction_id;

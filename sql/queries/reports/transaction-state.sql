-- Where some of a customer's transactions stand now, to explain why a
-- report no longer matches the store: each id asked for, with the version
-- of the stored transaction (NULL when there is none) and of its deletion
-- (NULL when it was never deleted, or came back since).
-- Parameters: $client_id, $customer_id, $ids (JSON array of transaction ids).
WITH ids AS (
    SELECT DISTINCT unnest(from_json($ids::JSON, '["VARCHAR"]')) AS transaction_id
)
SELECT i.transaction_id,
       strftime(t.occurred_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z' AS occurred_at,
       t.event_id,
       t.status,
       t.currency,
       strftime(d.occurred_at, '%Y-%m-%dT%H:%M:%S.%g') || 'Z' AS deleted_at,
       d.event_id AS deleted_by
FROM ids i
LEFT JOIN transactions t ON t.client_id = $client_id AND t.customer_id = $customer_id AND t.transaction_id = i.transaction_id
LEFT JOIN tombstones d ON d.record_type = 'transaction' AND d.client_id = $client_id AND d.customer_id = $customer_id
                      AND d.record_id = i.transaction_id
ORDER BY i.transaction_id;

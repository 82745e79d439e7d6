-- The requested account ids that the customer does not have: a report must
-- not silently drop an account the caller asked for.
-- Parameters: $account_ids, $client_id, $customer_id.
WITH requested AS (
    SELECT DISTINCT unnest(from_json($account_ids::JSON, '["VARCHAR"]')) AS account_id
),
owned AS (
    SELECT account_id FROM accounts WHERE client_id = $client_id AND customer_id = $customer_id
    UNION
    SELECT account_id FROM transactions WHERE client_id = $client_id AND customer_id = $customer_id
)
SELECT r.account_id
FROM requested r
WHERE r.account_id NOT IN (SELECT account_id FROM owned)
ORDER BY r.account_id;

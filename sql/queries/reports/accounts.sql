-- The accounts behind each customer's reports and their holders: accounts
-- known from account events, and any account that only transactions name
-- (an account event may not have arrived yet; its name, type and provider
-- are then NULL). account_details lists each account once, by id.
-- Restricted to $account_ids when given. Parameters: $account_ids (as in scope.sql). Reads the
-- customers of scope.sql, which must run first in the same transaction.
WITH subjects AS (
    SELECT client_id, customer_id FROM report_subjects
),
selected AS (
    SELECT from_json($account_ids::JSON, '["VARCHAR"]') AS ids
),
known AS (
    SELECT a.client_id, a.customer_id, a.account_id, a.holder_name, a.account_name, a.account_type, a.provider
    FROM accounts a JOIN subjects s ON s.client_id = a.client_id AND s.customer_id = a.customer_id, selected
    WHERE selected.ids IS NULL OR list_contains(selected.ids, a.account_id)
    UNION ALL
    SELECT DISTINCT t.client_id, t.customer_id, t.account_id, NULL, NULL, NULL, NULL
    FROM monthly_category_totals t JOIN subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id, selected
    WHERE (selected.ids IS NULL OR list_contains(selected.ids, t.account_id))
      AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.client_id = t.client_id AND a.customer_id = t.customer_id AND a.account_id = t.account_id)
)
SELECT s.customer_id, s.client_id,
       coalesce(list(DISTINCT k.account_id ORDER BY k.account_id) FILTER (WHERE k.account_id IS NOT NULL), []) AS account_ids,
       coalesce(list(DISTINCT k.holder_name ORDER BY k.holder_name) FILTER (WHERE k.holder_name IS NOT NULL), []) AS holder_names,
       coalesce(list(DISTINCT k.detail ORDER BY k.detail) FILTER (WHERE k.account_id IS NOT NULL), []) AS account_details
FROM subjects s
LEFT JOIN (
    -- account_id leads the struct, so the list is in account order.
    SELECT *, {'account_id': account_id, 'account_name': account_name, 'account_type': account_type, 'provider': provider} AS detail FROM known
) k ON k.client_id = s.client_id AND k.customer_id = s.customer_id
GROUP BY s.customer_id, s.client_id
ORDER BY s.client_id, s.customer_id;

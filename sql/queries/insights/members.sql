-- The transactions of insight_tx (queries/insights/scope, run first in the
-- same transaction) that carry any of the insight keys asked for: what a
-- figure's link (`insight=KEY`, repeatable) lists.
-- $keys  JSON array of insight keys
SELECT transaction_id
FROM insight_tx
WHERE list_has_any(keys, from_json($keys::JSON, '["VARCHAR"]'))
ORDER BY transaction_id;

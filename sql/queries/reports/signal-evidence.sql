-- The transactions behind a report's risk signals, for its appendix: those
-- of insight_tx (queries/insights/scope, run first in the same transaction)
-- in the range that carry any of the insight keys the signals' links name,
-- with their date, description, amount, direction and running balance.
-- Parameters: $keys (JSON array of insight keys), $month_from, $month_to (first days).
SELECT client_id, customer_id, transaction_id, strftime(day, '%Y-%m-%d') AS date, description,
       amount::VARCHAR AS amount, direction, running_balance::VARCHAR AS running_balance,
       list_filter(keys, k -> list_contains(from_json($keys::JSON, '["VARCHAR"]'), k)) AS keys
FROM insight_tx
WHERE month BETWEEN $month_from::DATE AND $month_to::DATE
  AND list_has_any(keys, from_json($keys::JSON, '["VARCHAR"]'))
ORDER BY client_id, customer_id, date_time, transaction_id;

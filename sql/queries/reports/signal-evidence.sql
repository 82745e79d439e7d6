-- The transactions behind a report's risk signals, for its appendix: those
-- of insight_tx (queries/insights/scope, run first in the same transaction)
-- in the range that carry any of the insight keys the signals' links name,
-- with their date, description, amount, direction and running balance,
-- as one JSON array (see queryJsonRows) in date order.
-- Parameters: $keys (JSON array of insight keys), $month_from, $month_to (first days).
WITH evidence AS (
    SELECT client_id, customer_id, transaction_id, strftime(day, '%Y-%m-%d') AS date, description,
           amount::VARCHAR AS amount, direction, running_balance::VARCHAR AS running_balance,
           list_filter(keys, k -> list_contains(from_json($keys::JSON, '["VARCHAR"]'), k)) AS keys,
           date_time
    FROM insight_tx
    WHERE month BETWEEN $month_from::DATE AND $month_to::DATE
      AND list_has_any(keys, from_json($keys::JSON, '["VARCHAR"]'))
)
SELECT to_json(list({
           'client_id': e.client_id, 'customer_id': e.customer_id, 'transaction_id': e.transaction_id, 'date': e.date,
           'description': e.description, 'amount': e.amount, 'direction': e.direction, 'running_balance': e.running_balance, 'keys': e.keys
       } ORDER BY e.client_id, e.customer_id, e.date_time, e.transaction_id))::VARCHAR AS rows
FROM evidence e;

-- When the next pending delivery that is not already being sent falls due.
-- Parameters: $in_flight.
SELECT min(next_attempt_at) AS next_attempt_at
FROM webhook_outbox
WHERE status = 'pending'
  AND delivery_id NOT IN (SELECT unnest(from_json($in_flight::VARCHAR, '["VARCHAR"]')));

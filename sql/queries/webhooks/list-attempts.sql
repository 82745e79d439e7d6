-- Every attempt of the given deliveries, in order.
-- Parameters: $delivery_ids.
SELECT delivery_id, attempt, started_at, status_code, error, latency_ms, outcome, next_attempt_at
FROM webhook_attempts
WHERE delivery_id IN (SELECT unnest($delivery_ids::VARCHAR[]))
ORDER BY delivery_id, attempt;

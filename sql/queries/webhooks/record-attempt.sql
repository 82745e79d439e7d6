-- One attempt and the delivery's new state, together. Nothing is recorded for
-- a delivery removed meanwhile (its customer was deleted).
-- Parameters: $attempt, $delivery_id, $error, $latency_ms, $next_attempt_at, $now, $outcome, $started_at, $status, $status_code.
INSERT INTO webhook_attempts (delivery_id, attempt, started_at, status_code, error, latency_ms, outcome, next_attempt_at)
SELECT $delivery_id, $attempt, $started_at::TIMESTAMP, $status_code::INTEGER, $error::VARCHAR, $latency_ms, $outcome,
       $next_attempt_at::TIMESTAMP
WHERE EXISTS (SELECT 1 FROM webhook_outbox WHERE delivery_id = $delivery_id);

UPDATE webhook_outbox
SET attempts = $attempt,
    status = $status,
    next_attempt_at = $next_attempt_at::TIMESTAMP,
    last_status_code = $status_code::INTEGER,
    last_error = $error::VARCHAR,
    updated_at = $now::TIMESTAMP
WHERE delivery_id = $delivery_id;

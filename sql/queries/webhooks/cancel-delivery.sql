-- The subscription was deactivated after the event was enqueued: it receives nothing more.
-- Parameters: $delivery_id, $now.
UPDATE webhook_outbox
SET status = 'cancelled', next_attempt_at = NULL, last_error = 'subscription deactivated', updated_at = $now::TIMESTAMP
WHERE delivery_id = $delivery_id AND status = 'pending';

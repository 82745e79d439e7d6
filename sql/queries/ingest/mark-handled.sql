-- Records that a client's event was handled, and when (by this process's
-- clock: the nightly job compares it with the times of files it wrote);
-- recording it twice changes nothing.
-- Parameters: $client_id, $event_id, $type, $now.
INSERT INTO handled_events (client_id, event_id, type, handled_at) VALUES ($client_id, $event_id, $type, $now::TIMESTAMP) ON CONFLICT DO NOTHING;

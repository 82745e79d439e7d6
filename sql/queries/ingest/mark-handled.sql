-- Records that a client's event was handled; recording it twice changes nothing.
-- Parameters: $client_id, $event_id, $type.
INSERT INTO handled_events (client_id, event_id, type) VALUES ($client_id, $event_id, $type) ON CONFLICT DO NOTHING;

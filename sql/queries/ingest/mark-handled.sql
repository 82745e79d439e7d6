-- Records that an event was handled; recording it twice changes nothing.
-- Parameters: $event_id, $type.
INSERT INTO handled_events (event_id, type) VALUES ($event_id, $type) ON CONFLICT DO NOTHING;

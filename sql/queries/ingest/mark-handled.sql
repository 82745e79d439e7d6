INSERT INTO handled_events (event_id, type) VALUES ($event_id, $type) ON CONFLICT DO NOTHING;

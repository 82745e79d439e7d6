SELECT event_id FROM handled_events WHERE event_id IN (SELECT unnest($event_ids::VARCHAR[]));

-- Which of the given event ids were already handled (deletions that must not be repeated).
-- Parameters: $event_ids.
SELECT event_id FROM handled_events WHERE event_id IN (SELECT unnest($event_ids::VARCHAR[]));

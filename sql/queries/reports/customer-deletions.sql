-- Every customer deletion afford has written, with when it was written (the
-- moment the deletion event was handled): a report PDF of that customer made
-- before it shows data the deletion removed, whether or not the customer
-- still exists (records newer than the deletion stay). No parameters.
SELECT t.client_id, t.record_id AS customer_id, max(h.handled_at)::VARCHAR AS deleted_at
FROM tombstones t
JOIN handled_events h ON h.event_id = t.event_id AND (h.client_id = t.client_id OR h.client_id = '')
WHERE t.record_type = 'customer'
GROUP BY ALL;

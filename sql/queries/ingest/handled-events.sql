-- Which of the given events were already handled (deletions and payment
-- notices, which must not be repeated), each of its client: a row of client
-- '' was handled before events were kept per client, and counts for every
-- client (016_handled_events_per_client.sql).
-- Parameters: $client_ids and $event_ids, parallel lists, one pair per event.
WITH k AS (SELECT unnest($client_ids::VARCHAR[]) AS client_id, unnest($event_ids::VARCHAR[]) AS event_id)
SELECT DISTINCT k.client_id, k.event_id
FROM k JOIN handled_events h ON h.event_id = k.event_id AND (h.client_id = k.client_id OR h.client_id = '');

-- Events with effects beyond rows (a customer's deletion, a payment notice)
-- are handled once per client, not once per event id: two clients may use
-- the same event id, and one client's event must not make another's look
-- handled (its deletion would then be skipped, and its notice never sent).
-- An event handled before this was keyed by its id alone: its client is
-- taken from the deletion's tombstone or the notice's webhook where either
-- is still there (a webhook's key is 'event:' and the event id), and is
-- left '' otherwise, which every client's lookup
-- matches (sql/queries/ingest/handled-events.sql), so that a replay of such
-- an event still changes nothing.
CREATE TABLE handled_events_new (
    client_id   VARCHAR NOT NULL,
    event_id    VARCHAR NOT NULL,
    type        VARCHAR NOT NULL,
    handled_at  TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (client_id, event_id)
);

INSERT INTO handled_events_new (client_id, event_id, type, handled_at)
SELECT DISTINCT ON (coalesce(c.client_id, ''), h.event_id) coalesce(c.client_id, ''), h.event_id, h.type, h.handled_at
FROM handled_events h
LEFT JOIN (
    SELECT client_id, event_id FROM tombstones WHERE record_type = 'customer'
    UNION
    SELECT client_id, substr(event_key, length('event:') + 1) FROM webhook_outbox WHERE event_key LIKE 'event:%'
) c ON c.event_id = h.event_id;

DROP TABLE handled_events;
ALTER TABLE handled_events_new RENAME TO handled_events;

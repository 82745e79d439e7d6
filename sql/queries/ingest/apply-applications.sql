-- Upserts the staged customer applications: per application the latest event
-- wins (by occurred_at, then event_id), and only over an older stored version.
CREATE OR REPLACE TEMP TABLE application_winners AS
WITH latest AS (
    -- The whole row of the latest event, as one value: a grouping, which costs less than a window over a few rows.
    SELECT unnest(arg_max(r, {'o': r.occurred_at, 'e': r.event_id}))
    FROM (SELECT * REPLACE (occurred_at::TIMESTAMP AS occurred_at) FROM stage_applications) r
    GROUP BY r.client_id, r.customer_id, r.application_id
)
SELECT s.*, (a.application_id IS NOT NULL) AS existed
FROM latest s
LEFT JOIN customer_applications a ON a.client_id = s.client_id AND a.customer_id = s.customer_id AND a.application_id = s.application_id
WHERE a.application_id IS NULL OR s.occurred_at > a.occurred_at OR (s.occurred_at = a.occurred_at AND s.event_id > a.event_id);

DELETE FROM customer_applications a USING application_winners w
WHERE a.client_id = w.client_id AND a.customer_id = w.customer_id AND a.application_id = w.application_id;

INSERT INTO customer_applications (client_id, customer_id, application_id, body, occurred_at, event_id)
SELECT client_id, customer_id, application_id, body::JSON, occurred_at, event_id FROM application_winners;


-- What the fast path's rows (stage_transactions, staged by fast-rows.sql)
-- need of their customers, one row per customer: how many rows it has, the
-- first one (by position in the batch) newer than the customer's deletion,
-- with its secret (the event that creates a customer new to the store), and
-- every secret its rows carry (checked against the stored one in JavaScript,
-- once per customer and secret). A version is (occurred_at, event_id).
-- No parameters.
SELECT s.client_id, s.customer_id, count(*)::INTEGER AS events,
       min(s.seq) FILTER (WHERE newer)::INTEGER AS first_seq,
       arg_min_null(s.customer_secret, s.seq) FILTER (WHERE newer) AS first_secret,
       coalesce(list(DISTINCT s.customer_secret) FILTER (WHERE s.customer_secret IS NOT NULL), []) AS secrets
FROM (
    SELECT s.*, t.occurred_at IS NULL OR s.occurred_at::TIMESTAMP > t.occurred_at
                OR (s.occurred_at::TIMESTAMP = t.occurred_at AND s.event_id > t.event_id) AS newer
    FROM stage_transactions s
    LEFT JOIN tombstones t ON t.record_type = 'customer' AND t.client_id = s.client_id AND t.record_id = s.customer_id
) s
GROUP BY s.client_id, s.customer_id;

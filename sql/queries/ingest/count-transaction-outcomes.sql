-- Outcome of each staged event, judged in arrival order.
WITH judged AS (
    SELECT op, prior_op, (prior_version IS NULL OR version > prior_version) AS applied
    FROM tx_events WHERE seq >= 0
)
SELECT
    count(*) FILTER (WHERE applied AND op = 'upsert' AND coalesce(prior_op, 'delete') = 'delete')::INTEGER AS inserted,
    count(*) FILTER (WHERE applied AND op = 'upsert' AND prior_op = 'upsert')::INTEGER AS updated,
    count(*) FILTER (WHERE applied AND op = 'delete' AND prior_op = 'upsert')::INTEGER AS deleted,
    count(*) FILTER (WHERE op = 'upsert')::INTEGER AS staged_upserts,
    count(*) FILTER (WHERE op = 'delete')::INTEGER AS staged_deletes
FROM judged;

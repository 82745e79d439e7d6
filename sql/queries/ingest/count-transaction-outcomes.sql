-- Outcome of each staged event, judged in arrival order by judge-transactions.sql,
-- and how many winners replace a stored row or a stored deletion (the later
-- steps that would find nothing to do are skipped). No parameters.
SELECT
    count(*) FILTER (WHERE applied AND op = 'upsert' AND coalesce(prior_op, 'delete') = 'delete')::INTEGER AS inserted,
    count(*) FILTER (WHERE applied AND op = 'upsert' AND prior_op = 'upsert')::INTEGER AS updated,
    count(*) FILTER (WHERE applied AND op = 'delete' AND prior_op = 'upsert')::INTEGER AS deleted,
    count(*) FILTER (WHERE op = 'upsert')::INTEGER AS staged_upserts,
    count(*) FILTER (WHERE op = 'delete')::INTEGER AS staged_deletes,
    count(*) FILTER (WHERE winner AND existed)::INTEGER AS replaced_rows,
    count(*) FILTER (WHERE winner AND tombstoned)::INTEGER AS replaced_tombstones,
    count(*) FILTER (WHERE winner AND op = 'delete')::INTEGER AS new_tombstones
FROM tx_events;

-- Recomputes every customer-month the staged transaction winners touch (the
-- month a replaced row was in, the month a winning upsert is in), from the
-- transactions, with the one monthly totals formula (monthly_totals_of,
-- which applies monthly_totals_in to them; migration 015), and writes only
-- the totals rows that changed: a stored row the recomputation does not
-- give again, the same to the cent and the count, is deleted, and a
-- recomputed row not stored as it is, inserted. A
-- batch of events in time order touches the current month of nearly every
-- customer, most of whose rows it leaves as they were; rewriting them all
-- left DuckDB old versions to keep until a checkpoint, and more to commit.
-- Runs after the rows are replaced. No parameters.
INSERT INTO batch_months
SELECT DISTINCT client_id, customer_id, month FROM (
    SELECT client_id, customer_id, old_month AS month FROM tx_events WHERE winner AND existed
    UNION ALL
    SELECT s.client_id, s.customer_id, date_trunc('month', s.date_time::TIMESTAMP)::DATE
    FROM stage_transactions s SEMI JOIN (SELECT seq FROM tx_events WHERE winner AND op = 'upsert') w ON w.seq = s.seq
);

-- The recomputed rows beside the stored rows of the same months, matched on
-- every column but the figures: a pair whose figures differ, or a row on
-- one side only, is a change (old_rowid says which stored row goes).
INSERT INTO batch_totals
WITH recomputed AS (
    SELECT * FROM monthly_totals_of('batch_months')
), stored AS (
    SELECT m.rowid AS old_rowid, m.* FROM monthly_category_totals m
    SEMI JOIN batch_months a ON m.client_id = a.client_id AND m.customer_id = a.customer_id AND m.month = a.month
)
SELECT s.old_rowid, n.*
FROM stored s FULL OUTER JOIN recomputed n
  ON n.client_id = s.client_id AND n.customer_id = s.customer_id AND n.account_id = s.account_id AND n.month = s.month
 AND n.currency = s.currency AND n.category_l1 = s.category_l1 AND n.category_l2 = s.category_l2 AND n.direction = s.direction
WHERE n.total IS DISTINCT FROM s.total OR n.transaction_count IS DISTINCT FROM s.transaction_count;

DELETE FROM monthly_category_totals WHERE rowid IN (SELECT old_rowid FROM batch_totals WHERE old_rowid IS NOT NULL);

INSERT INTO monthly_category_totals
SELECT * EXCLUDE (old_rowid) FROM batch_totals WHERE client_id IS NOT NULL;

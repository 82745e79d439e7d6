-- The positions of the raw events fast-parse.sql left to JavaScript (every
-- one it did not stage): few, so they are read rather than the fast rows.
-- No parameters.
SELECT seq FROM raw_events ANTI JOIN stage_transactions USING (seq) ORDER BY seq;

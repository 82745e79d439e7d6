-- The positions of the raw events fast-parse.sql left to JavaScript (every
-- one it did not stage): few, so they are read rather than the fast rows.
-- Parameters: $batch (the batch's number in the scratch table).
SELECT seq FROM raw_events ANTI JOIN (SELECT seq FROM afford_scratch.fast_staged WHERE batch = $batch) USING (seq) ORDER BY seq;

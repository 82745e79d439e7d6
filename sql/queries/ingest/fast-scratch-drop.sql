-- Deletes what fast-parse.sql left in the scratch database for a batch once
-- the writer has taken it (or the batch went another way). DuckDB reuses
-- the deleted rows' memory for the next batches.
-- Parameters: $batch (the batch's number in the scratch table).
DELETE FROM afford_scratch.fast_staged WHERE batch = $batch;

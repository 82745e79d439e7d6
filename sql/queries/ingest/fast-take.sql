-- Takes the rows fast-parse.sql staged beside the writer into the writer's
-- own stage, inside the batch's transaction.
-- Parameters: $batch (the batch's number in the scratch table).
INSERT INTO stage_transactions SELECT * EXCLUDE (batch) FROM afford_scratch.fast_staged WHERE batch = $batch;

-- Drops what fast-parse.sql left in the scratch database once the writer
-- has taken it (or the batch went another way), so that its memory goes
-- back at once. No parameters.
DROP TABLE IF EXISTS afford_scratch.fast_staged;

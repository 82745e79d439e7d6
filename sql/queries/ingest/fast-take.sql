-- Takes the rows fast-parse.sql staged beside the writer into the writer's
-- own stage, inside the batch's transaction. No parameters.
INSERT INTO stage_transactions SELECT * FROM afford_scratch.fast_staged;

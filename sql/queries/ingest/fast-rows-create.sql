-- The text of a batch's fast rows (see fast-rows.sql), made for each batch
-- and dropped once staged, so that its memory goes back at once. No parameters.
CREATE OR REPLACE TEMP TABLE fast_rows (row VARCHAR);

-- The text of a batch's fast rows (see fast-rows.sql), made for each batch
-- and dropped once staged, so that its memory goes back at once; a text's
-- span (shift, from_seq, to_seq), when it has one, says which of its rows go
-- in and at what position. No parameters.
CREATE OR REPLACE TEMP TABLE fast_rows (row VARCHAR, shift INTEGER, from_seq INTEGER, to_seq INTEGER);

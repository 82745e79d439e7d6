-- The raw text of a batch's events, by position in the batch, for
-- fast-parse.sql. Made for each batch and dropped once parsed (fast-raw-drop),
-- so that its memory goes back at once: deleted rows of a table would keep it.
-- No parameters.
CREATE OR REPLACE TEMP TABLE raw_events (seq INTEGER, raw VARCHAR);

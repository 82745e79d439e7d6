-- Drops a batch's raw text (fast-raw.sql) once the fast path has parsed it
-- and read which rows it left. No parameters.
DROP TABLE IF EXISTS raw_events;

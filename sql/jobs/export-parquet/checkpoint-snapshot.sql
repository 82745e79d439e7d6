-- Writes what the snapshot holds so far to its file: a slice of reports is
-- smaller than a row group, so DuckDB keeps it in memory until a checkpoint,
-- and without one after each slice every report of the store sat there.
CHECKPOINT afford_snapshot;

-- The new snapshot file, attached to the service's own DuckDB instance: the
-- live file is never opened a second time (closing a second descriptor of it
-- would drop the process's lock). DuckDB cannot bind a parameter in ATTACH,
-- so $snapshot_file is replaced by the path as a quoted SQL string literal.
ATTACH $snapshot_file AS afford_snapshot;

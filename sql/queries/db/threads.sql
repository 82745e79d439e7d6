-- How many threads DuckDB runs each query on (its `threads` setting, the
-- whole instance's).
-- Parameters: none.
SELECT current_setting('threads')::INTEGER AS threads;

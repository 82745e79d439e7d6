-- Sets how many threads DuckDB runs each query on, for the whole instance
-- (every connection) until set again.
-- Parameters: $value (at least 1).
SET GLOBAL threads = $value;

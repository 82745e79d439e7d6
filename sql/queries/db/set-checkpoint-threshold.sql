-- Sets how much the write-ahead log may hold before DuckDB checkpoints (its
-- checkpoint_threshold), for the whole instance until set again.
-- Parameters: $value (a size, such as '64MB').
SET GLOBAL checkpoint_threshold = $value;

-- Sets the compression methods DuckDB does not try when it checkpoints (its
-- disabled_compression_methods, such as 'dictionary'; '' for none), for the
-- whole instance until set again.
-- Parameters: $value (a comma-separated list of methods, or '').
SET GLOBAL disabled_compression_methods = $value;

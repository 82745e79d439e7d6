-- Sets the most memory DuckDB may use for its buffers (its memory_limit),
-- for the whole instance until set again. Lowering it evicts what the
-- buffers hold beyond it, and fails when that cannot be done.
-- Parameters: $value (a size, such as '256MB').
SET GLOBAL memory_limit = $value;

-- The current values of some of DuckDB's settings (the whole instance's), as
-- text that SET takes back: a size such as '183.1 MiB', a number of threads,
-- a list of compression methods.
-- Parameters: $names (a JSON array of setting names).
SELECT name, value
FROM duckdb_settings()
WHERE list_contains(from_json($names::JSON, '["VARCHAR"]'), name);

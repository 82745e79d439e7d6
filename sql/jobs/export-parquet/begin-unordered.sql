-- For this connection only, until end-unordered.sql: rows need not keep
-- their stored order on the way to a Parquet file. Keeping it makes DuckDB
-- hold whole scanned chunks back for the writer, and a chunk of reports
-- (2,048 of some 20 KB each) is 40 MB on its own.
SET SESSION preserve_insertion_order = false;

-- Creates the store's file, as attach-store.sql opens one (the database
-- `afford`, row groups of 16,384 rows, the connection's default), in the
-- storage format of DuckDB 1.5 rather than DuckDB's default for a new file,
-- the format of 1.0 that every later version can read. The newer format
-- compresses text with DICT_FSST, a dictionary whose strings are FSST
-- compressed, where the older one tries a dictionary and FSST apart on
-- every column of every row group it writes: storing the rows of an ingest
-- costs about a quarter less, in a file about a tenth larger. A file once
-- created keeps its format (attach-store.sql names none), so a store
-- written by an earlier version is never rewritten, and DuckDB 1.5 or later
-- is needed to open a store created so; the data teams' snapshot is a file
-- of its own, in the older format. $store_file is replaced by the path as
-- a quoted SQL string literal.
ATTACH $store_file AS afford (ROW_GROUP_SIZE 16384, STORAGE_VERSION 'v1.5.0');
USE afford;

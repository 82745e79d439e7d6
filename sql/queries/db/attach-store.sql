-- Opens the store's file in the process's DuckDB instance, as the database
-- `afford`, and makes it the connection's default. DuckDB writes the rows a
-- transaction appends straight into the file, compressed, once they fill a
-- row group, and then logs only where they are; fewer rows go through the
-- write-ahead log, to be written a second time at the checkpoint. Row groups
-- of 16,384 rows (DuckDB's default is 122,880) let an ingest batch of 25,000
-- events be written so. The size is a setting of the attachment, not of the
-- file, so it is given each time the file is opened. A file that does not
-- exist yet is created by create-store.sql instead, in a newer storage
-- format. DuckDB binds no parameter in ATTACH, so $store_file is replaced
-- by the path as a quoted SQL string literal.
ATTACH $store_file AS afford (ROW_GROUP_SIZE 16384);
USE afford;

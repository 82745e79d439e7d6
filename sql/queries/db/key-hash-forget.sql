-- Forgets every transaction's key hash, made by a hash the running DuckDB
-- no longer computes: the rows are then found by their key columns (see
-- judge-stored-rows.sql), and those stored from then on get the running
-- hash. A column dropped and added again costs nothing a row, where setting
-- it to NULL would update every row (which DuckDB 1.5 did not survive in a
-- file of its older format: the next append failed with "Could not find
-- node in column segment tree" and invalidated the store). No parameters.
ALTER TABLE transactions DROP COLUMN key_hash;
ALTER TABLE transactions ADD COLUMN key_hash UBIGINT;

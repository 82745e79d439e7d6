-- Forgets every transaction's key hash, made by a hash the running DuckDB
-- no longer computes: the rows are then hashed again a slice at a time
-- (key-hash-fill.sql). A column dropped and added again costs nothing per
-- row, where setting it to NULL would update every row in one transaction.
-- No parameters.
ALTER TABLE transactions DROP COLUMN key_hash;
ALTER TABLE transactions ADD COLUMN key_hash UBIGINT;

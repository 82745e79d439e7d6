-- Gives up to $rows transactions that have no key hash yet (stored before
-- migration 018, or before the hash changed) their hash, in the transaction
-- the caller runs it in. Each row is stored again with its hash and the old
-- one deleted, as the ingest replaces a row, rather than updated in place:
-- in a file of DuckDB's older storage format, whose row groups are larger
-- than the store's (see attach-store.sql), DuckDB 1.5 updating a column
-- and then appending to the table failed its next statement ("Could not
-- find node in column segment tree") and invalidated the store.
CREATE OR REPLACE TEMP TABLE key_hash_moving AS
SELECT rowid AS moving_row FROM transactions WHERE key_hash IS NULL LIMIT $rows;

INSERT INTO transactions
SELECT * REPLACE (transaction_key_hash(client_id, customer_id, transaction_id) AS key_hash)
FROM transactions WHERE rowid IN (SELECT moving_row FROM key_hash_moving);

DELETE FROM transactions WHERE rowid IN (SELECT moving_row FROM key_hash_moving);

DROP TABLE key_hash_moving;

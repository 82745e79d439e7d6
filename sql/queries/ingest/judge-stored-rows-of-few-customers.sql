-- judge-stored-rows.sql for a segment whose staged transactions are of few
-- stored customers (write-batch.ts counts them): joined on the customer too,
-- DuckDB filters the stored rows by those few customer ids as it scans, and
-- skips every row group whose statistics leave them out. A file in customer
-- order so reads a few row groups rather than every row's hash; in a store
-- written in time order it costs what the hash alone does. For many
-- customers the filter is a range, which skips nothing in time order and
-- reads the customer ids of every row too. Rows without a hash are found by
-- their key columns, as there. No parameters.
INSERT INTO stored_rowids
WITH k AS MATERIALIZED (FROM stored_rows_sought)
SELECT t.rowid FROM transactions t
SEMI JOIN k ON t.key_hash = k.key_hash AND t.customer_id = k.customer_id AND t.client_id = k.client_id
UNION ALL
SELECT t.rowid FROM transactions t
SEMI JOIN k ON t.client_id = k.client_id AND t.customer_id = k.customer_id AND t.transaction_id = k.transaction_id
WHERE t.key_hash IS NULL;

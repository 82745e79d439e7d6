-- The first step of the judge (judge-transactions.sql): the row ids of the
-- stored rows of the staged transactions, into stored_rowids, found by the
-- hash of their key (migration 018), reading that one column of eight
-- bytes. Reading the three key columns instead took most of the judge's
-- time in a store written in time order, where DuckDB's statistics on
-- customer ids skip nothing. A row found by a hash that is not its key's
-- is harmless: its key, read in the judge's next step, is another
-- transaction's, which no staged event contests.
--
-- A row without a hash (stored before migration 018, or whose hash was
-- dropped when DuckDB's changed: src/db/key-hashes.ts) is found by its key
-- columns, as before the hash: DuckDB's statistics skip every row group
-- that holds no such row, so in a store whose rows all have their hash this
-- costs next to nothing.
--
-- A customer created in this segment (stage_customers) has no stored rows:
-- every transaction row has its customer's row (delete-customer.sql keeps
-- the customer while one stays). Their events are not looked for (the view
-- stored_rows_sought, made with the stage tables, leaves them out), and a
-- segment of new customers only looks at no stored row at all.
--
-- For a segment whose stored customers are few, the judge runs
-- judge-stored-rows-of-few-customers.sql instead. No parameters.
INSERT INTO stored_rowids
WITH k AS MATERIALIZED (FROM stored_rows_sought)
SELECT t.rowid FROM transactions t SEMI JOIN k ON t.key_hash = k.key_hash
UNION ALL
SELECT t.rowid FROM transactions t
SEMI JOIN k ON t.client_id = k.client_id AND t.customer_id = k.customer_id AND t.transaction_id = k.transaction_id
WHERE t.key_hash IS NULL;

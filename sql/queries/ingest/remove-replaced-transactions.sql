-- Removes the stored rows that the batch's winners replace (a newer upsert
-- or a deletion), by the row ids judge-transactions found them at in this
-- same transaction: matching them by key instead read the key columns of
-- the whole table, every batch, when the batch's events were not grouped by
-- customer (as in a Kafka stream). No parameters.
DELETE FROM transactions WHERE rowid IN (SELECT old_rowid FROM tx_events WHERE winner AND existed);

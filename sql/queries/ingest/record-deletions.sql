-- Records when the batch's transaction deletions were written (for the
-- transaction list's updated_after), after judge-transactions has judged
-- each staged event (tx_events). A winning deletion that removed a stored
-- transaction is recorded; a transaction written again leaves the record,
-- as it is no longer deleted: a recorded deletion always has its
-- tombstone (both are written together, and removed together with the
-- customer), so only a winner that replaces a tombstone can have one.
-- Parameters: none.
DELETE FROM transaction_deletions d USING tx_events w
WHERE w.winner AND w.op = 'upsert' AND w.tombstoned AND d.client_id = w.client_id AND d.customer_id = w.customer_id AND d.transaction_id = w.transaction_id;

INSERT INTO transaction_deletions (client_id, customer_id, transaction_id, updated_at)
SELECT client_id, customer_id, transaction_id, current_timestamp
FROM tx_events
WHERE winner AND op = 'delete' AND existed;

-- Removes the stored rows that the batch's winners replace (a newer upsert or a deletion). No parameters.
DELETE FROM transactions t USING tx_events w
WHERE w.winner AND w.existed AND t.client_id = w.client_id AND t.customer_id = w.customer_id AND t.transaction_id = w.transaction_id;

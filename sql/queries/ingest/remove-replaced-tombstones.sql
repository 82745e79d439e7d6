-- Removes the stored deletions that the batch's winners replace (a newer upsert or deletion). No parameters.
DELETE FROM tombstones d USING tx_events w
WHERE w.winner AND w.tombstoned AND d.record_type = 'transaction'
  AND d.client_id = w.client_id AND d.customer_id = w.customer_id AND d.record_id = w.transaction_id;

-- Records the winning deletions, so that an older upsert arriving later cannot bring the transaction back. No parameters.
INSERT INTO tombstones (record_type, client_id, customer_id, record_id, occurred_at, event_id)
SELECT 'transaction', s.client_id, s.customer_id, s.transaction_id, s.occurred_at::TIMESTAMP, s.event_id
FROM stage_transactions s
SEMI JOIN (SELECT seq FROM tx_events WHERE winner AND op = 'delete') w ON w.seq = s.seq;

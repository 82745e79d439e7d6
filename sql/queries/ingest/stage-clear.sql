-- Empties every staging table once a batch (or a segment of it) is applied.
DELETE FROM stage_transactions;
DELETE FROM tx_events;
DELETE FROM stored_rowids;
DELETE FROM batch_months;
DELETE FROM batch_totals;
DELETE FROM stage_accounts;
DELETE FROM stage_balances;
DELETE FROM stage_applications;
DELETE FROM stage_customers;
DELETE FROM stage_dead_letters;

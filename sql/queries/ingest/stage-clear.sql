-- Empties every staging table before a batch is staged.
DELETE FROM stage_transactions;
DELETE FROM stage_accounts;
DELETE FROM stage_balances;
DELETE FROM stage_applications;
DELETE FROM stage_customers;
DELETE FROM stage_dead_letters;

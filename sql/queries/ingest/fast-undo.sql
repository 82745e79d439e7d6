-- Empties what the fast path staged, for a batch that takes the schema's
-- path after all (one holding a customer deletion). No parameters.
DELETE FROM stage_transactions;

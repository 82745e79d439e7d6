-- Replaces the stored monthly totals with the ones the view computes from the
-- transactions, in the job's one transaction.
DELETE FROM monthly_category_totals;
INSERT INTO monthly_category_totals SELECT * FROM monthly_category_totals_computed;

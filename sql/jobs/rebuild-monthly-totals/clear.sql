-- Empties the stored monthly totals, in the replacing transaction, before
-- insert-slice.sql writes them again slice by slice. No parameters.
DELETE FROM monthly_category_totals;

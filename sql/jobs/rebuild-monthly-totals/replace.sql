DELETE FROM monthly_category_totals;
INSERT INTO monthly_category_totals SELECT * FROM monthly_category_totals_computed;

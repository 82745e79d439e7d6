-- The months each exported table holds (YYYY-MM), in order: the export writes
-- one month of one table at a time. A report is filed under the last month
-- of its range, and its insights with it.
SELECT 'transactions' AS table_name, strftime(month, '%Y-%m') AS month
FROM (SELECT DISTINCT month FROM transactions)
UNION ALL
SELECT 'monthly_category_totals', strftime(month, '%Y-%m')
FROM (SELECT DISTINCT month FROM monthly_category_totals)
UNION ALL
SELECT 'affordability_reports', strftime(month_to, '%Y-%m')
FROM (SELECT DISTINCT month_to FROM affordability_reports)
UNION ALL
SELECT 'affordability_insights', strftime(month_to, '%Y-%m')
FROM (SELECT DISTINCT month_to FROM affordability_insights)
ORDER BY table_name, month;

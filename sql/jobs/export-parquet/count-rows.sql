-- What an export holds, read in the same transaction as the export itself.
SELECT (SELECT count(*) FROM transactions)::INTEGER AS transactions,
       (SELECT count(*) FROM monthly_category_totals)::INTEGER AS monthly_category_totals,
       (SELECT count(*) FROM affordability_report_parts WHERE part = 0)::INTEGER AS affordability_reports,
       (SELECT count(*) FROM affordability_insights)::INTEGER AS affordability_insights;

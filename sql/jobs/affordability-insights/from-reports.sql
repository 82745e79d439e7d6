-- Refills affordability_insights from the reports the nightly job stored:
-- the insights section of each report, with the columns a data team filters
-- on taken out of it. The table mirrors affordability_reports, so a report
-- replaced or a customer deleted there is replaced or gone here too.
-- Parameters: none.
DELETE FROM affordability_insights;

INSERT INTO affordability_insights
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at,
       from_json(json_extract(report, '$.data.insights.flags'), '["VARCHAR"]'),
       json_extract_string(report, '$.data.insights.disposable_income.overall_total.value')::DECIMAL(18,2),
       json_extract_string(report, '$.data.insights.disposable_income.deficit')::BOOLEAN,
       json_extract_string(report, '$.data.insights.income.verified.predicted_monthly.value')::DECIMAL(18,2),
       json_extract(report, '$.data.insights')
FROM affordability_reports
WHERE json_extract(report, '$.data.insights') IS NOT NULL;

SELECT count(*)::INTEGER AS stored,
       count(*) FILTER (WHERE len(flags) > 0)::INTEGER AS flagged,
       count(*) FILTER (WHERE deficit)::INTEGER AS in_deficit
FROM affordability_insights;

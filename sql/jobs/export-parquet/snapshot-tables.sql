-- What the snapshot holds, to report with the run: its tables' rows, with
-- the reports counted as reports (part 0 of each) under the name data teams
-- read them by, affordability_reports.
SELECT table_name, estimated_size::BIGINT AS rows
FROM duckdb_tables()
WHERE database_name = 'afford_snapshot' AND table_name <> 'affordability_report_parts'
UNION ALL
SELECT 'affordability_reports', count(*)::BIGINT
FROM afford_snapshot.affordability_report_parts
WHERE part = 0
ORDER BY table_name;

-- Moves up to 200 reports stored whole (affordability_reports_whole, see
-- 013_report_parts.sql) into parts of 1,000 characters (at most 4,000 bytes
-- whatever the characters), in the transaction src/db/migrate.ts runs it
-- in, and says how many it moved: run again until none are left.
CREATE OR REPLACE TEMP TABLE moving_reports AS
SELECT rowid AS whole_row, customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version,
       report::VARCHAR AS text
FROM affordability_reports_whole
LIMIT 200;

-- The parts are cut as a list per report and unnested (two unnests in one
-- SELECT go side by side): a join of each report with its part numbers
-- copied the whole text into every part's row first.
INSERT INTO affordability_report_parts
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version,
       unnest(range(parts)) AS part,
       unnest(list_transform(range(parts), p -> substr(text, p * 1000 + 1, 1000))) AS text
FROM (SELECT *, greatest(1, (length(text) + 999) // 1000) AS parts FROM moving_reports);

DELETE FROM affordability_reports_whole WHERE rowid IN (SELECT whole_row FROM moving_reports);

SELECT (SELECT count(*) FROM moving_reports)::INTEGER AS moved;

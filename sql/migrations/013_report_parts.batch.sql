-- Moves up to 200 reports stored whole (affordability_reports_whole, see
-- 013_report_parts.sql) into parts of 1,000 characters (at most 4,000 bytes
-- whatever the characters), in the transaction src/db/migrate.ts runs it
-- in, and says how many it moved and how many are left: run again until
-- none are left.
CREATE OR REPLACE TEMP TABLE moving_reports AS
SELECT rowid AS whole_row, customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version,
       report::VARCHAR AS text
FROM affordability_reports_whole
LIMIT 200;

-- The parts are cut as a list per report and unnested (two unnests in one
-- SELECT go side by side): a join of each report with its part numbers
-- copied the whole text into every part's row first. The view joins parts
-- by their key columns, so a report whose key is already in parts (a row
-- stored twice) is not moved again: its parts would interleave.
INSERT INTO affordability_report_parts
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version,
       unnest(range(parts)) AS part,
       unnest(list_transform(range(parts), p -> substr(text, p * 1000 + 1, 1000))) AS text
FROM (
    SELECT *, greatest(1, (length(text) + 999) // 1000) AS parts
    FROM moving_reports AS m
    WHERE NOT EXISTS (
        SELECT 1 FROM affordability_report_parts AS p
        WHERE p.part = 0 AND p.client_id = m.client_id AND p.customer_id = m.customer_id AND p.range_months = m.range_months
          AND p.month_from = m.month_from AND p.month_to = m.month_to AND p.currency = m.currency
          AND p.generated_at = m.generated_at AND p.generator_version = m.generator_version)
    QUALIFY row_number() OVER (
        PARTITION BY client_id, customer_id, range_months, month_from, month_to, currency, generated_at, generator_version
        ORDER BY whole_row) = 1
);

DELETE FROM affordability_reports_whole WHERE rowid IN (SELECT whole_row FROM moving_reports);

-- moved: the rows taken off the whole table; left: those still there.
SELECT (SELECT count(*) FROM moving_reports)::INTEGER AS moved,
       (SELECT count(*) FROM affordability_reports_whole)::INTEGER AS left;

-- The nightly reports are stored in parts: a report is 35 to 80 KB of JSON,
-- and DuckDB keeps a string of 4 KB or more outside its row group, in
-- overflow blocks. A table of 6,000 such strings took memory that grew with
-- the table: its checkpoint needed more than 128MB at 150 reports and more
-- than 256MB at 1,500, and a failed checkpoint stops the instance; and once
-- the process had written them, any read of a few reports loaded all of
-- them. Parts under 4 KB are stored like any short string, compressed and
-- read a row group at a time.
--
-- affordability_report_parts holds each report's text in order (part 0, 1,
-- ...), every part under 4,096 bytes; affordability_reports stays what it
-- was to a reader: one row per customer, range and currency, with the whole
-- report as JSON, now a view that joins the parts. Writers write the parts
-- (src/reports/report-archive.ts).
--
-- Reports stored whole before are kept in affordability_reports_whole and
-- moved into parts a few hundred at a time, each in its own transaction, by
-- 013_report_parts.batch.sql (src/db/migrate.ts runs it at every start
-- until nothing is left): moving 6,000 of them in one transaction needed
-- more than 384MB. The view shows both until then.

ALTER TABLE affordability_reports RENAME TO affordability_reports_whole;

CREATE TABLE affordability_report_parts (
    customer_id        VARCHAR NOT NULL,
    client_id          VARCHAR NOT NULL,
    range_months       INTEGER NOT NULL,    -- 3, 6 or 12: the length of the range
    month_from         DATE NOT NULL,       -- first day of the first month
    month_to           DATE NOT NULL,       -- first day of the last month
    currency           VARCHAR NOT NULL,
    generated_at       TIMESTAMP NOT NULL,
    generator_version  VARCHAR NOT NULL,
    part               INTEGER NOT NULL,    -- 0, 1, ...: the order of the parts in the report's text
    text               VARCHAR NOT NULL     -- a piece of the report's JSON text, under 4,096 bytes
);

CREATE VIEW affordability_reports AS
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version,
       string_agg(text, '' ORDER BY part)::JSON AS report
FROM affordability_report_parts
GROUP BY customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version
UNION ALL
SELECT * FROM affordability_reports_whole;

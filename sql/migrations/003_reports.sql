-- Affordability reports computed by the nightly job, kept for data teams.
-- One row per customer, range and currency; a re-run for the same range
-- replaces it, so earlier ranges stay as history. `report` is the body that
-- GET /v1/affordability/report returns for the same customer and range.

CREATE TABLE affordability_reports (
    customer_id        VARCHAR NOT NULL,
    client_id          VARCHAR NOT NULL,
    range_months       INTEGER NOT NULL,    -- 3, 6 or 12: the length of the range
    month_from         DATE NOT NULL,       -- first day of the first month
    month_to           DATE NOT NULL,       -- first day of the last month
    currency           VARCHAR NOT NULL,
    generated_at       TIMESTAMP NOT NULL,
    generator_version  VARCHAR NOT NULL,
    report             JSON NOT NULL
);

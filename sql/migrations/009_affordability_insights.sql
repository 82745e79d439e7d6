-- Insights kept beside the nightly reports, for data teams: one row per
-- stored report that carries them (customer, range, currency), filled by the
-- affordability-insights job from affordability_reports. `insights` is the
-- body GET /v1/affordability/insights returns as `data`; the columns before
-- it repeat what a team filters on most (the flagged signals, the
-- disposable income and whether it is a deficit, the verified income).
CREATE TABLE affordability_insights (
    customer_id             VARCHAR NOT NULL,
    client_id               VARCHAR NOT NULL,
    range_months            INTEGER NOT NULL,
    month_from              DATE NOT NULL,
    month_to                DATE NOT NULL,
    currency                VARCHAR NOT NULL,
    generated_at            TIMESTAMP NOT NULL,
    flags                   VARCHAR[] NOT NULL,
    disposable_income       DECIMAL(18,2) NOT NULL,
    deficit                 BOOLEAN NOT NULL,
    verified_income_monthly DECIMAL(18,2) NOT NULL,
    insights                JSON NOT NULL
);

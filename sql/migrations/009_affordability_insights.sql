-- Insights kept beside the nightly reports, for data teams: one row per
-- stored report (customer, range, currency), written with it in the same
-- transaction (sql/queries/reports/save-insights.sql); the report's JSON
-- holds the whole insights (data.insights). The columns are what a team
-- filters and sums on: the flagged signals, the disposable income and its
-- deficit months, verified income and fixed commitments per month, and the
-- risk signals themselves (value, threshold, flag, amount, link).
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
    deficit_months          VARCHAR[] NOT NULL,
    verified_income_monthly DECIMAL(18,2) NOT NULL,
    fixed_monthly           DECIMAL(18,2) NOT NULL,
    risk_signals            JSON NOT NULL
);

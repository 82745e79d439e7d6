-- Stores the insights of a batch of nightly reports beside them, in the
-- same transaction, once delete-replaced.sql has removed those they replace
-- (same customer, range and currency). What a data team filters
-- and sums on is in columns; the whole insights stay in the report's JSON
-- (data.insights).
-- $insights: JSON [{customer_id, client_id, range_months, month_from, month_to, currency, generated_at,
--            flags, disposable_income, deficit, deficit_months, verified_income_monthly, fixed_monthly, risk_signals}]
INSERT INTO affordability_insights
    (customer_id, client_id, range_months, month_from, month_to, currency, generated_at, flags, disposable_income, deficit,
     deficit_months, verified_income_monthly, fixed_monthly, risk_signals)
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at, flags, disposable_income, deficit,
       deficit_months, verified_income_monthly, fixed_monthly, risk_signals
FROM (
    SELECT unnest(from_json($insights::JSON,
        '[{"customer_id":"VARCHAR","client_id":"VARCHAR","range_months":"INTEGER","month_from":"DATE","month_to":"DATE",
           "currency":"VARCHAR","generated_at":"TIMESTAMP","flags":["VARCHAR"],"disposable_income":"DECIMAL(18,2)","deficit":"BOOLEAN",
           "deficit_months":["VARCHAR"],"verified_income_monthly":"DECIMAL(18,2)","fixed_monthly":"DECIMAL(18,2)","risk_signals":"JSON"}]'),
        recursive := true)
);

-- Stores the insights of a batch of nightly reports beside them, replacing
-- those stored for the same customer, range and currency (as delete-replaced-reports
-- does for the reports), in the same transaction. What a data team filters
-- and sums on is in columns; the whole insights stay in the report's JSON
-- (data.insights).
-- $keys:     JSON [{client_id, customer_id, month_from, month_to, currency}]
-- $insights: JSON [{customer_id, client_id, range_months, month_from, month_to, currency, generated_at,
--            flags, disposable_income, deficit, deficit_months, verified_income_monthly, fixed_monthly, risk_signals}]
DELETE FROM affordability_insights AS stored
USING (
    SELECT unnest(from_json($keys::JSON,
        '[{"client_id":"VARCHAR","customer_id":"VARCHAR","month_from":"DATE","month_to":"DATE","currency":"VARCHAR"}]'), recursive := true)
) AS incoming
WHERE stored.client_id = incoming.client_id
  AND stored.customer_id = incoming.customer_id
  AND stored.month_from = incoming.month_from
  AND stored.month_to = incoming.month_to
  AND stored.currency = incoming.currency;

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

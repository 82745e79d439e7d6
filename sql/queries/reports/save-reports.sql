-- Stores a batch of nightly reports, replacing any report already stored for
-- the same customer (client and customer id), range and currency (a re-run
-- the same month), and leaving other ranges as history.
-- $keys:    JSON [{client_id, customer_id, month_from, month_to, currency}] of the reports,
--           apart so that the delete need not parse the reports themselves
-- $reports: JSON [{customer_id, client_id, range_months, month_from, month_to,
--           currency, generated_at, generator_version, report}]
DELETE FROM affordability_reports AS stored
USING (
    SELECT unnest(from_json($keys::JSON,
        '[{"client_id":"VARCHAR","customer_id":"VARCHAR","month_from":"DATE","month_to":"DATE","currency":"VARCHAR"}]'), recursive := true)
) AS incoming
WHERE stored.client_id = incoming.client_id
  AND stored.customer_id = incoming.customer_id
  AND stored.month_from = incoming.month_from
  AND stored.month_to = incoming.month_to
  AND stored.currency = incoming.currency;

INSERT INTO affordability_reports
    (customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version, report)
SELECT customer_id, client_id, range_months, month_from, month_to, currency, generated_at, generator_version, report
FROM (
    SELECT unnest(from_json($reports::JSON,
        '[{"customer_id":"VARCHAR","client_id":"VARCHAR","range_months":"INTEGER","month_from":"DATE","month_to":"DATE",
           "currency":"VARCHAR","generated_at":"TIMESTAMP","generator_version":"VARCHAR","report":"JSON"}]'), recursive := true)
);

-- Removes the stored reports, and the insights stored beside them, that a
-- batch of nightly reports replaces: those of the same customer (client and
-- customer id), range and currency (a re-run the same month), every part of
-- them, leaving other ranges as history. The batch itself is then appended
-- to affordability_report_parts (report-archive.ts) and its insights
-- inserted (save-insights.sql), in the same transaction: reports go in as
-- the text they already are, never parsed.
-- $keys: JSON [{client_id, customer_id, month_from, month_to, currency}] of the batch
CREATE OR REPLACE TEMP TABLE replaced_keys AS
SELECT unnest(from_json($keys::JSON,
    '[{"client_id":"VARCHAR","customer_id":"VARCHAR","month_from":"DATE","month_to":"DATE","currency":"VARCHAR"}]'), recursive := true);

DELETE FROM affordability_report_parts AS stored
USING replaced_keys AS incoming
WHERE stored.client_id = incoming.client_id AND stored.customer_id = incoming.customer_id
  AND stored.month_from = incoming.month_from AND stored.month_to = incoming.month_to AND stored.currency = incoming.currency;

DELETE FROM affordability_insights AS stored
USING replaced_keys AS incoming
WHERE stored.client_id = incoming.client_id AND stored.customer_id = incoming.customer_id
  AND stored.month_from = incoming.month_from AND stored.month_to = incoming.month_to AND stored.currency = incoming.currency;

DROP TABLE replaced_keys;

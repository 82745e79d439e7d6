-- Removes the stored reports that a batch of nightly reports replaces: those
-- of the same customer (client and customer id), range and currency (a
-- re-run the same month), leaving other ranges as history. The batch itself
-- is then appended to affordability_reports (report-archive.ts), in the same
-- transaction: reports go in as the text they already are, never parsed.
-- $keys: JSON [{client_id, customer_id, month_from, month_to, currency}] of the batch
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

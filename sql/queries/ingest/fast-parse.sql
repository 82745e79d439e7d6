-- The fast path: parses the raw events of a batch (raw_events, see
-- fast-raw.sql) in SQL, and stages into stage_transactions every plain
-- transaction event that is certainly valid, exactly as the event schema
-- (src/domain/events.ts) would return it and stage.ts would stage it. A row
-- it is not certain of is left out, and goes to the schema in JavaScript,
-- which also gives a reject its per-field reason. "Certain" is narrow:
--   - the line holds no backslash, so each string is verbatim its JSON text
--     between quotes, with nothing to unescape;
--   - the line is exactly as long as the keys and values read from it,
--     written compactly: so it holds no other key (an unknown one, a
--     duplicate, a merchant), no null, no whitespace between tokens, no
--     trailing comma (which DuckDB's parser takes and JSON.parse does not);
--   - every value read is a string, an object or an array of strings where
--     the schema wants one (a string's JSON text starts with a quote);
--   - text is bounded in bytes (never fewer than the schema's UTF-16
--     units), instants are in the forms YYYY-MM-DDTHH:MM:SSZ and
--     YYYY-MM-DDTHH:MM:SS.sssZ only,
--     confidences are strings only, a counterparty names something.
-- Two statements: inlined into one, DuckDB would parse the line again for
-- each field read from it.
-- Parameters: $max_bytes, $max_occurred_at (the latest occurred_at accepted,
-- as the store's timestamp text), $currencies (the known ISO 4217 codes),
-- $pairs (the known category pairs, 'l1/l2').
CREATE OR REPLACE TEMP TABLE fast_parsed AS
SELECT seq, strlen(raw)::INTEGER AS bytes, TRY(json_transform(raw, '{
        "event_id": "JSON", "type": "JSON", "occurred_at": "JSON", "client_id": "JSON", "customer_id": "JSON", "customer_secret": "JSON",
        "data": {
            "transaction_id": "JSON", "account_id": "JSON", "provider": "JSON", "description": "JSON", "credit_debit_indicator": "JSON",
            "amount": {"value": "JSON", "currency": "JSON"}, "date_time": "JSON", "status": "JSON",
            "enrichments": {
                "categories": {"l1": {"slug": "JSON", "confidence": "JSON"}, "l2": {"slug": "JSON", "confidence": "JSON"}},
                "regularity": {"frequency": "JSON", "predicted_date_times": ["JSON"], "group_label": "JSON"}
            },
            "tags": ["JSON"], "posted_date_time": "JSON", "value_date_time": "JSON", "merchant_category_code": "JSON",
            "counterparty": {"name": "JSON", "identifier": "JSON"}, "running_balance": {"value": "JSON", "currency": "JSON"}
        }}')) AS j
FROM raw_events
-- A replacement character may stand for a lone surrogate of the JavaScript text, which the schema refuses.
WHERE strlen(raw) <= $max_bytes AND NOT contains(raw, '\') AND NOT contains(raw, '�');

INSERT INTO stage_transactions
WITH fields AS (
    SELECT seq, bytes, j.event_id AS event_id, j.type AS type, j.type = '"transaction.upserted"' AS upsert, j.occurred_at AS occurred_at,
           j.client_id AS client_id, j.customer_id AS customer_id, j.customer_secret AS customer_secret, j.data AS d,
           j.data.enrichments.categories.l1 AS l1, j.data.enrichments.categories.l2 AS l2,
           j.data.enrichments.regularity AS r, j.data.counterparty AS cp, j.data.running_balance AS rb
    FROM fast_parsed
    WHERE j.type IN ('"transaction.upserted"', '"transaction.deleted"')
), checked AS (
    SELECT * FROM fields
    WHERE fast_id(event_id) AND fast_id(client_id) AND fast_id(customer_id) AND fast_id(d.transaction_id)
      AND fast_instant(occurred_at) AND fast_db_time(occurred_at)::TIMESTAMP <= $max_occurred_at::TIMESTAMP
      AND (customer_secret IS NULL OR (fast_string(customer_secret) AND strlen(customer_secret) BETWEEN 3 AND 502))
), sized AS (
    -- Each object written compactly is 1 + its members (a member counts its comma, or the closing brace):
    -- a member is its key in quotes, a colon and its value (fast_member).
    SELECT *,
        1 + fast_member(event_id, 8) + fast_member(type, 4) + fast_member(occurred_at, 11) + fast_member(client_id, 9)
          + fast_member(customer_id, 11) + fast_member(customer_secret, 15) + 8 AS envelope_bytes,
        CASE WHEN r IS NULL THEN 0 ELSE 14 + 1 + fast_member(r.frequency, 9) + fast_member(r.group_label, 11)
            + CASE WHEN r.predicted_date_times IS NULL THEN 0 ELSE 24 + fast_array(r.predicted_date_times) END END AS regularity_bytes
    FROM checked
)
SELECT seq,
       CASE WHEN upsert THEN 'upsert' ELSE 'delete' END AS op,
       fast_text(event_id), fast_db_time(occurred_at), fast_text(client_id), fast_text(customer_id), fast_text(d.transaction_id),
       fast_text(d.account_id), fast_default(upsert, fast_text(d.provider), ''), fast_default(upsert, fast_text(d.description), ''),
       fast_text(d.credit_debit_indicator), fast_text(d.amount.value), fast_text(d.amount.currency), fast_db_time(d.date_time),
       fast_default(upsert, fast_text(d.status), 'booked'), fast_text(l1.slug), fast_text(l1.confidence), fast_text(l2.slug), fast_text(l2.confidence),
       -- As JSON.stringify writes the schema's regularity: its keys in the schema's order, instants normalised.
       CASE WHEN r IS NOT NULL THEN
           '{"frequency":' || r.frequency || ',"predicted_date_times":['
           || array_to_string(list_transform(coalesce(r.predicted_date_times, []), x -> '"' || fast_iso(x) || '"'), ',') || ']'
           || CASE WHEN r.group_label IS NULL THEN '' ELSE ',"group_label":' || r.group_label END || '}'
       END AS regularity,
       NULL AS merchant,
       CASE WHEN upsert THEN '[' || array_to_string(coalesce(d.tags, []), ',') || ']' END AS tags,
       fast_db_time(d.posted_date_time), fast_db_time(d.value_date_time), fast_text(d.merchant_category_code),
       fast_text(cp.name), fast_text(cp.identifier), fast_text(rb.value), fast_text(rb.currency),
       fast_text(customer_secret) AS customer_secret, true AS fast
FROM sized
WHERE CASE WHEN NOT upsert THEN
          bytes = envelope_bytes + 1 + fast_member(d.transaction_id, 14)
      ELSE
          fast_id(d.account_id) AND fast_text_max(d.provider, 500) AND fast_text_max(d.description, 1000)
          AND d.credit_debit_indicator IN ('"credit"', '"debit"')
          AND regexp_full_match(d.amount.value, '"(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?"') AND regexp_matches(d.amount.value, '[1-9]')
          AND fast_text(d.amount.currency) IN (SELECT unnest($currencies::VARCHAR[]))
          AND fast_instant(d.date_time)
          AND (d.status IS NULL OR d.status IN ('"booked"', '"pending"', '"declined"'))
          AND fast_string(l1.slug) AND strlen(l1.slug) BETWEEN 3 AND 102 AND fast_text_max(l1.confidence, 100)
          AND fast_string(l2.slug) AND strlen(l2.slug) BETWEEN 3 AND 102 AND fast_text_max(l2.confidence, 100)
          AND fast_text(l1.slug) || '/' || fast_text(l2.slug) IN (SELECT unnest($pairs::VARCHAR[]))
          AND (r IS NULL OR (fast_string(r.frequency) AND strlen(r.frequency) <= 102 AND fast_text_max(r.group_label, 500)
                             AND (r.predicted_date_times IS NULL OR (len(r.predicted_date_times) <= 100
                                  AND len(list_filter(r.predicted_date_times, x -> NOT coalesce(fast_instant(x), false))) = 0))))
          AND (d.tags IS NULL OR (len(d.tags) <= 50 AND len(list_filter(d.tags, x -> NOT coalesce(fast_string(x) AND strlen(x) <= 502, false))) = 0))
          AND (d.posted_date_time IS NULL OR fast_instant(d.posted_date_time))
          AND (d.value_date_time IS NULL OR fast_instant(d.value_date_time))
          AND fast_text_max(d.merchant_category_code, 100)
          AND (cp IS NULL OR ((cp.name IS NOT NULL OR cp.identifier IS NOT NULL) AND fast_text_max(cp.name, 500) AND fast_text_max(cp.identifier, 500)))
          AND (rb IS NULL OR (regexp_full_match(rb.value, '"-?(0|[1-9][0-9]{0,8})(\.[0-9]{1,2})?"')
                              AND fast_text(rb.currency) IN (SELECT unnest($currencies::VARCHAR[]))))
          AND bytes = envelope_bytes + 1
              + fast_member(d.transaction_id, 14) + fast_member(d.account_id, 10) + fast_member(d.provider, 8)
              + fast_member(d.description, 11) + fast_member(d.credit_debit_indicator, 22)
              + 10 + 1 + fast_member(d.amount.value, 5) + fast_member(d.amount.currency, 8)
              + fast_member(d.date_time, 9) + fast_member(d.status, 6)
              + 15 + 1 + 14 + 1 + 6 + 1 + fast_member(l1.slug, 4) + fast_member(l1.confidence, 10)
                                + 6 + 1 + fast_member(l2.slug, 4) + fast_member(l2.confidence, 10)
              + regularity_bytes
              + CASE WHEN d.tags IS NULL THEN 0 ELSE 8 + fast_array(d.tags) END
              + fast_member(d.posted_date_time, 16) + fast_member(d.value_date_time, 15) + fast_member(d.merchant_category_code, 22)
              + CASE WHEN cp IS NULL THEN 0 ELSE 16 + 1 + fast_member(cp.name, 4) + fast_member(cp.identifier, 10) END
              + CASE WHEN rb IS NULL THEN 0 ELSE 19 + 1 + fast_member(rb.value, 5) + fast_member(rb.currency, 8) END
      END;

DROP TABLE fast_parsed;

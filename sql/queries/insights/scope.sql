-- The transactions every insight query reads, classified once, as temporary
-- tables of this connection (run inside a read transaction, whose rollback
-- drops them). A transaction's classification depends on it alone and the
-- rules (rules/insights.json), never on the range asked for, so a month's
-- figure and the range's figure select transactions the same way, and the
-- transaction list (insight=KEY) selects exactly them again.
--
-- insight_subjects  the customers asked for that exist
-- insight_ranges    the ranges, months as first days, range_end the last day
-- insight_tx        their non-declined transactions in $currency, the selected
--                   accounts and the ranges' months, each with:
--   norm    the counterparty (or description) in lower-case letters and single spaces: the group key
--   source  income source of an income credit (salary, benefits, pension, gig, other)
--   kind    commitment kind of a spending debit (first matching rule wins), else NULL
--   keys    every insight key it counts towards:
--           income, income_excluding_benefits, stream:<source>:<norm>  (credits of the core-dashboard income bucket)
--           expenditure (debits outside the transfers bucket), fixed and commitment:<kind>:<norm>, or flexible
--           gambling, high_cost_credit, new_borrowing, returned_direct_debit, unpaid_fee, cash_withdrawal (the signal rules)
--           overdrawn (its running balance is below zero; credit card accounts' balances are owed, never overdrawn)
--
-- $customers            JSON [{client_id, customer_id}]
-- $ranges               JSON [{range_key, month_from, month_to}], months as first days
-- $account_ids          JSON array of account ids, or NULL for all
-- $currency             only transactions in this currency count; NULL for every currency (the transaction list)
-- $criteria             JSON criterion rows of core-dashboard (category pair -> bucket pair)
-- $income_sources       JSON [{category_l2, source}]
-- $signal_pairs         JSON [{key, direction, category_l1, category_l2}]
-- $signal_patterns      JSON [{key, direction, pattern}]
-- $commitment_pairs     JSON [{kind, priority, category_l1, category_l2}]
-- $commitment_patterns  JSON [{kind, priority, pattern}]
CREATE OR REPLACE TEMP TABLE insight_subjects AS
SELECT c.client_id, c.customer_id FROM customers c
SEMI JOIN (SELECT unnest(from_json($customers::JSON, '[{"client_id":"VARCHAR","customer_id":"VARCHAR"}]'), recursive := true)) k
  ON k.client_id = c.client_id AND k.customer_id = c.customer_id;

CREATE OR REPLACE TEMP TABLE insight_ranges AS
SELECT range_key, month_from, month_to, (month_to + INTERVAL 1 MONTH - INTERVAL 1 DAY)::DATE AS range_end
FROM (SELECT unnest(from_json($ranges::JSON, '[{"range_key":"VARCHAR","month_from":"DATE","month_to":"DATE"}]'), recursive := true));

CREATE OR REPLACE TEMP TABLE insight_tx AS
WITH criteria AS (
    SELECT unnest(from_json($criteria::JSON,
        '[{"bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
sources AS (SELECT unnest(from_json($income_sources::JSON, '[{"category_l2":"VARCHAR","source":"VARCHAR"}]'), recursive := true)),
signal_pairs AS (
    SELECT unnest(from_json($signal_pairs::JSON, '[{"key":"VARCHAR","direction":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
signal_patterns AS (SELECT unnest(from_json($signal_patterns::JSON, '[{"key":"VARCHAR","direction":"VARCHAR","pattern":"VARCHAR"}]'), recursive := true)),
commitment_pairs AS (
    SELECT unnest(from_json($commitment_pairs::JSON, '[{"kind":"VARCHAR","priority":"INTEGER","category_l1":"VARCHAR","category_l2":"VARCHAR"}]'), recursive := true)
),
commitment_patterns AS (SELECT unnest(from_json($commitment_patterns::JSON, '[{"kind":"VARCHAR","priority":"INTEGER","pattern":"VARCHAR"}]'), recursive := true)),
bounds AS (SELECT min(month_from) AS lo, max(month_to) AS hi FROM insight_ranges),
cards AS (
    SELECT a.client_id, a.customer_id, a.account_id FROM accounts a
    SEMI JOIN insight_subjects s ON s.client_id = a.client_id AND s.customer_id = a.customer_id
    WHERE a.account_type = 'credit_card'
),
base AS (
    SELECT t.client_id, t.customer_id, t.transaction_id, t.account_id, t.date_time, t.date_time::DATE AS day, t.month,
           t.amount, t.credit_debit_indicator AS direction, t.description, t.counterparty_name, t.category_l1, t.category_l2,
           -- A card's balance is money owed, not an overdraft.
           CASE WHEN card.account_id IS NULL THEN t.running_balance END AS running_balance,
           c.bucket_l1
    FROM transactions t
    JOIN insight_subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    CROSS JOIN bounds b
    LEFT JOIN criteria c ON c.category_l1 = t.category_l1 AND c.category_l2 = t.category_l2
    LEFT JOIN cards card ON card.client_id = t.client_id AND card.customer_id = t.customer_id AND card.account_id = t.account_id
    WHERE t.status <> 'declined'
      AND ($currency::VARCHAR IS NULL OR t.currency = $currency::VARCHAR)
      AND t.month BETWEEN b.lo AND b.hi
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
),
-- Descriptions repeat (every salary, every bill), so each distinct one is normalised and matched once.
texts AS (
    SELECT description, counterparty_name,
           ' ' || trim(regexp_replace(lower(description || ' ' || coalesce(counterparty_name, '')), '[^a-z]+', ' ', 'g')) || ' ' AS words,
           coalesce(nullif(trim(regexp_replace(lower(coalesce(nullif(counterparty_name, ''), description)), '[^a-z]+', ' ', 'g')), ''), 'unknown') AS norm
    FROM (SELECT DISTINCT description, counterparty_name FROM base)
),
text_signals AS (
    SELECT x.description, x.counterparty_name, r.key, r.direction
    FROM texts x JOIN signal_patterns r ON contains(x.words, ' ' || r.pattern || ' ')
),
text_commitments AS (
    SELECT x.description, x.counterparty_name, r.kind, r.priority
    FROM texts x JOIN commitment_patterns r ON contains(x.words, ' ' || r.pattern || ' ')
),
signal_hits AS (
    SELECT b.client_id, b.customer_id, b.transaction_id, r.key
    FROM base b JOIN signal_pairs r ON r.direction = b.direction AND r.category_l1 = b.category_l1 AND r.category_l2 = b.category_l2
    UNION
    SELECT b.client_id, b.customer_id, b.transaction_id, x.key
    FROM base b JOIN text_signals x ON x.direction = b.direction AND x.description = b.description
     AND x.counterparty_name IS NOT DISTINCT FROM b.counterparty_name
),
signal_keys AS (
    SELECT client_id, customer_id, transaction_id, list(key ORDER BY key) AS keys FROM signal_hits GROUP BY ALL
),
commitment_hits AS (
    SELECT b.client_id, b.customer_id, b.transaction_id, r.kind, r.priority
    FROM base b JOIN commitment_pairs r ON r.category_l1 = b.category_l1 AND r.category_l2 = b.category_l2
    WHERE b.direction = 'debit'
    UNION ALL
    SELECT b.client_id, b.customer_id, b.transaction_id, x.kind, x.priority
    FROM base b JOIN text_commitments x ON x.description = b.description AND x.counterparty_name IS NOT DISTINCT FROM b.counterparty_name
    WHERE b.direction = 'debit'
),
commitment_kind AS (
    SELECT client_id, customer_id, transaction_id, arg_min(kind, priority) AS kind FROM commitment_hits GROUP BY ALL
),
classified AS (
    SELECT b.*,
           CASE WHEN b.direction = 'credit' AND b.bucket_l1 = 'income' THEN coalesce(src.source, 'other') END AS source,
           CASE WHEN b.direction = 'debit' AND coalesce(b.bucket_l1, '') <> 'transfers' THEN ck.kind END AS kind,
           b.direction = 'debit' AND coalesce(b.bucket_l1, '') <> 'transfers' AS is_expenditure,
           coalesce(sk.keys, []::VARCHAR[]) AS signal_keys,
           x.norm
    FROM base b
    JOIN texts x ON x.description = b.description AND x.counterparty_name IS NOT DISTINCT FROM b.counterparty_name
    LEFT JOIN sources src ON src.category_l2 = b.category_l2
    LEFT JOIN commitment_kind ck ON ck.client_id = b.client_id AND ck.customer_id = b.customer_id AND ck.transaction_id = b.transaction_id
    LEFT JOIN signal_keys sk ON sk.client_id = b.client_id AND sk.customer_id = b.customer_id AND sk.transaction_id = b.transaction_id
)
SELECT client_id, customer_id, transaction_id, account_id, date_time, day, month, amount, direction, description, running_balance,
       norm, source, kind,
       list_concat(
           CASE WHEN source IS NULL THEN []::VARCHAR[]
                WHEN source = 'benefits' THEN ['income', 'stream:' || source || ':' || norm]
                ELSE ['income', 'income_excluding_benefits', 'stream:' || source || ':' || norm] END,
           CASE WHEN NOT is_expenditure THEN []::VARCHAR[]
                WHEN kind IS NULL THEN ['expenditure', 'flexible']
                ELSE ['expenditure', 'fixed', 'commitment:' || kind || ':' || norm] END,
           signal_keys,
           CASE WHEN running_balance < 0 THEN ['overdrawn'] ELSE []::VARCHAR[] END
       ) AS keys
FROM classified;

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
--           A payment to one of the customer's own credit card accounts (see card_candidates), and a debit a returned
--           direct debit gives back (see reversal_candidates), is no expenditure; a credit onto a card is no new borrowing.
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
-- Each subject with its credit card accounts: a card's balance is money owed, not an overdraft.
subjects AS (
    SELECT s.client_id, s.customer_id, list(a.account_id) FILTER (WHERE a.account_id IS NOT NULL) AS cards
    FROM insight_subjects s
    LEFT JOIN accounts a ON a.client_id = s.client_id AND a.customer_id = s.customer_id AND a.account_type = 'credit_card'
    GROUP BY s.client_id, s.customer_id
),
-- The ranges' transactions, and those of the fortnight either side: a direct debit paid at the end of the last month
-- may be returned in the first days of the next (see reversal_candidates), and which payment a card credit or a return picks
-- depends on the debits around it (up to twelve days away, through a credit that picked the same), which a range's
-- first days must see as every other range does.
wide AS MATERIALIZED (
    SELECT t.client_id, t.customer_id, t.transaction_id, t.account_id, t.date_time, t.month, t.currency,
           t.amount, t.credit_debit_indicator AS direction, t.description, t.counterparty_name, t.category_l1, t.category_l2,
           coalesce(list_contains(s.cards, t.account_id), false) AS on_card, s.cards,
           CASE WHEN NOT coalesce(list_contains(s.cards, t.account_id), false) THEN t.running_balance END AS running_balance
    FROM transactions t
    JOIN subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    CROSS JOIN bounds b
    WHERE t.status <> 'declined'
      AND ($currency::VARCHAR IS NULL OR t.currency = $currency::VARCHAR)
      -- A DATE on both sides, so that DuckDB skips the row groups of other months (a TIMESTAMP here read them all).
      AND t.month BETWEEN (b.lo - INTERVAL 1 MONTH)::DATE AND (b.hi + INTERVAL 1 MONTH)::DATE
      AND t.date_time >= b.lo - INTERVAL 14 DAY AND t.date_time < b.hi + INTERVAL 1 MONTH + INTERVAL 14 DAY
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
),
base AS (
    SELECT w.* FROM wide w CROSS JOIN bounds b WHERE w.month BETWEEN b.lo AND b.hi
),
-- Everything but the overdraft depends on a transaction's texts, direction and
-- category pair alone, and those repeat (every salary, every bill): each
-- distinct combination is classified once, and each distinct text normalised
-- and matched once.
classes AS (
    SELECT DISTINCT description, counterparty_name, direction, category_l1, category_l2 FROM wide
),
-- words: the description's and the counterparty's in lower-case letters of any
-- script, each between single spaces; norm: the counterparty's (or, with
-- none, the description's). Letters of any script, not a to z alone: two
-- employers named in Cyrillic and in Greek would otherwise both be
-- 'unknown', and their pay one irregular stream. Text in the Latin, Greek
-- and Cyrillic scripts loses its accents, so that NESTLÉ and NESTLE (or an
-- É written as E and a combining accent) are one payer and a pattern's
-- plain letters match; text in any other script keeps its marks, composed
-- (NFC), since in Devanagari or Tamil a vowel sign tells two names apart
-- (कोमल, कमल).
texts AS (
    SELECT description, counterparty_name,
           ' ' || CASE WHEN fc IS NULL OR fc = '' THEN fd WHEN fd = '' THEN fc ELSE fd || ' ' || fc END || ' ' AS words,
           coalesce(nullif(coalesce(k[2], k[1]), ''), 'unknown') AS norm
    FROM (
        -- The group key leaves out the names of months (SALARY JAN, RENT MARCH), which a payer or bank may put in every
        -- payment's text: they split one salary into a stream a month, none of them regular. A text of month names
        -- alone keeps them.
        SELECT description, counterparty_name, fd, fc,
               list_transform([fd, fc], x -> coalesce(nullif(trim(regexp_replace(regexp_replace(x,
                   '\b(january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec)\b',
                   ' ', 'g'), ' +', ' ', 'g')), ''), x)) AS k
        FROM (
            SELECT description, counterparty_name, n[1] AS fd, n[2] AS fc
            FROM (
                SELECT description, counterparty_name,
                       list_transform([description, nullif(counterparty_name, '')], x -> trim(regexp_replace(
                           CASE WHEN regexp_matches(x, '[^\p{Latin}\p{Greek}\p{Cyrillic}\p{Common}\p{Inherited}]') THEN nfc_normalize(lower(x))
                                ELSE strip_accents(lower(x)) END,
                           '[^\p{L}\p{M}]+', ' ', 'g'))) AS n
                FROM (SELECT DISTINCT description, counterparty_name FROM classes)
            )
        )
    )
),
-- A pattern is in a text when its words are, in a row: then its first word is
-- one of the text's, so only those pairs are compared. Signal and commitment
-- patterns are matched in one pass.
patterns AS (
    SELECT key, direction, NULL::VARCHAR AS kind, NULL::INTEGER AS priority, pattern FROM signal_patterns
    UNION ALL
    SELECT NULL, NULL, kind, priority, pattern FROM commitment_patterns
),
text_hits AS (
    SELECT x.description, x.counterparty_name, r.key, r.direction, r.kind, r.priority
    FROM (SELECT description, counterparty_name, words, unnest(string_split(trim(words), ' ')) AS word FROM texts) x
    JOIN patterns r ON x.word = split_part(r.pattern, ' ', 1) AND contains(x.words, ' ' || r.pattern || ' ')
),
text_signals AS (SELECT description, counterparty_name, key, direction FROM text_hits WHERE key IS NOT NULL),
text_commitments AS (SELECT description, counterparty_name, kind, priority FROM text_hits WHERE kind IS NOT NULL),
signal_hits AS (
    SELECT k.description, k.counterparty_name, k.direction, k.category_l1, k.category_l2, r.key
    FROM classes k JOIN signal_pairs r ON r.direction = k.direction AND r.category_l1 = k.category_l1 AND r.category_l2 = k.category_l2
    UNION
    SELECT k.description, k.counterparty_name, k.direction, k.category_l1, k.category_l2, x.key
    FROM classes k JOIN text_signals x ON x.direction = k.direction AND x.description = k.description
     AND x.counterparty_name IS NOT DISTINCT FROM k.counterparty_name
),
signal_keys AS (
    SELECT description, counterparty_name, direction, category_l1, category_l2, list(key ORDER BY key) AS keys FROM signal_hits GROUP BY ALL
),
commitment_hits AS (
    SELECT k.description, k.counterparty_name, k.category_l1, k.category_l2, r.kind, r.priority
    FROM classes k JOIN commitment_pairs r ON r.category_l1 = k.category_l1 AND r.category_l2 = k.category_l2
    WHERE k.direction = 'debit'
    UNION ALL
    SELECT k.description, k.counterparty_name, k.category_l1, k.category_l2, x.kind, x.priority
    FROM classes k JOIN text_commitments x ON x.description = k.description AND x.counterparty_name IS NOT DISTINCT FROM k.counterparty_name
    WHERE k.direction = 'debit'
),
commitment_kind AS (
    SELECT description, counterparty_name, category_l1, category_l2, arg_min(kind, priority) AS kind FROM commitment_hits GROUP BY ALL
),
classified AS (
    SELECT k.*, x.norm, x.words,
           -- Borrowed money is no income, whatever its category says: a payday loan's credit filed as income
           -- (the high-cost credit and new borrowing signals name it) counted as an income stream.
           CASE WHEN k.direction = 'credit' AND c.bucket_l1 = 'income'
                 AND NOT list_has_any(coalesce(sk.keys, []::VARCHAR[]), ['high_cost_credit', 'new_borrowing'])
                THEN coalesce(src.source, 'other') END AS source,
           CASE WHEN k.direction = 'debit' AND coalesce(c.bucket_l1, '') <> 'transfers' THEN ck.kind END AS kind,
           k.direction = 'debit' AND coalesce(c.bucket_l1, '') <> 'transfers' AS is_expenditure,
           coalesce(sk.keys, []::VARCHAR[]) AS signal_keys
    FROM classes k
    JOIN texts x ON x.description = k.description AND x.counterparty_name IS NOT DISTINCT FROM k.counterparty_name
    LEFT JOIN criteria c ON c.category_l1 = k.category_l1 AND c.category_l2 = k.category_l2
    LEFT JOIN sources src ON src.category_l2 = k.category_l2
    LEFT JOIN commitment_kind ck ON ck.description = k.description
     AND ck.counterparty_name IS NOT DISTINCT FROM k.counterparty_name AND ck.category_l1 = k.category_l1 AND ck.category_l2 = k.category_l2
    LEFT JOIN signal_keys sk ON sk.description = k.description AND sk.counterparty_name IS NOT DISTINCT FROM k.counterparty_name
     AND sk.direction = k.direction AND sk.category_l1 = k.category_l1 AND sk.category_l2 = k.category_l2
),
-- Every insight key of a class, but the overdraft's.
class_keys AS MATERIALIZED (
    SELECT description, counterparty_name, direction, category_l1, category_l2, norm, words, source, kind,
           list_concat(
               CASE WHEN source IS NULL THEN []::VARCHAR[]
                    WHEN source = 'benefits' THEN ['income', 'stream:' || source || ':' || norm]
                    ELSE ['income', 'income_excluding_benefits', 'stream:' || source || ':' || norm] END,
               CASE WHEN NOT is_expenditure THEN []::VARCHAR[]
                    WHEN kind IS NULL THEN ['expenditure', 'flexible']
                    ELSE ['expenditure', 'fixed', 'commitment:' || kind || ':' || norm] END,
               signal_keys
           ) AS keys
    FROM classified
),
-- A payment to a credit card (its commitment kind) that one of the customer's credit card accounts shows arriving
-- (a credit of the same amount and currency, from a day before to five days after, of whatever month) is money moved
-- between the customer's own accounts: the card's spending counts where it happened, on the card, and this payment
-- counted it a second time, as spending and a commitment. With the card's account left out of the accounts asked
-- for, the payment is all that shows of its spending, and counts. And a credit onto a card account pays it off: it is
-- no new borrowing, whatever its category. Each credit on the card stands for one payment: the one that names the
-- card's provider (BARCLAYCARD for a Barclaycard; words any card's name holds, such as CREDIT or CARD, do not count),
-- else the nearest before it; of two credits that pick the same payment, the later takes its next choice (a payment
-- of the same amount to another card stays spending).
card_candidates AS (
    SELECT c.client_id, c.customer_id, c.transaction_id AS credit_id, c.date_time AS credit_at, b.transaction_id AS debit_id,
           row_number() OVER (PARTITION BY c.client_id, c.customer_id, c.transaction_id
                              ORDER BY list_has_any(list_filter(string_split(k.norm, ' '), w -> length(w) > 2),
                                                    list_filter(string_split(regexp_replace(strip_accents(lower(a.provider)), '[^a-z]+', ' ', 'g'), ' '),
                                                                w -> length(w) > 2 AND w NOT IN ('card', 'cards', 'credit', 'bank', 'plc', 'ltd', 'limited',
                                                                    'the', 'and', 'payment', 'payments', 'visa', 'mastercard', 'account', 'financial', 'services'))) DESC,
                                       b.date_time <= c.date_time DESC, abs(epoch(c.date_time) - epoch(b.date_time)), b.transaction_id) AS pick
    FROM wide b
    JOIN class_keys k ON k.description = b.description AND k.counterparty_name IS NOT DISTINCT FROM b.counterparty_name
     AND k.direction = b.direction AND k.category_l1 = b.category_l1 AND k.category_l2 = b.category_l2
    JOIN transactions c ON c.client_id = b.client_id AND c.customer_id = b.customer_id AND list_contains(b.cards, c.account_id)
     AND c.credit_debit_indicator = 'credit' AND c.status <> 'declined' AND c.amount = b.amount AND c.currency = b.currency
     AND c.date_time BETWEEN b.date_time - INTERVAL 1 DAY AND b.date_time + INTERVAL 5 DAY
     -- Only a card whose spending is counted: with accounts asked for, one of them.
     AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), c.account_id))
    JOIN accounts a ON a.client_id = c.client_id AND a.customer_id = c.customer_id AND a.account_id = c.account_id
    WHERE k.kind = 'credit_card' AND NOT b.on_card
),
-- A debit that a returned direct debit gives back (a credit of the returned_direct_debit signal on the same account,
-- of the same amount and currency, at most seven days later) was never paid: it is no spending, and no payment of its
-- commitment. Counted, a direct debit returned and presented again was spending twice, and one returned and not
-- presented again spending that never left the account. The credit keeps its signal, and the bank's fee for it is
-- spending. Each return gives back one debit: the one its text names (UNPAID DD OCTOPUS ENERGY for OCTOPUS ENERGY),
-- else a bill (a debit of a commitment kind, as direct debits are) rather than a purchase, the latest first; of two
-- returns that pick the same debit, the later takes its next choice.
reversal_candidates AS (
    SELECT r.client_id, r.customer_id, r.transaction_id AS credit_id, r.date_time AS credit_at, d.transaction_id AS debit_id,
           row_number() OVER (PARTITION BY r.client_id, r.customer_id, r.transaction_id
                              ORDER BY contains(rk.words, ' ' || dk.norm || ' ') DESC, dk.kind IS NOT NULL DESC, d.date_time DESC,
                                       d.transaction_id DESC) AS pick
    FROM wide r
    JOIN class_keys rk ON rk.description = r.description AND rk.counterparty_name IS NOT DISTINCT FROM r.counterparty_name
     AND rk.direction = r.direction AND rk.category_l1 = r.category_l1 AND rk.category_l2 = r.category_l2
    JOIN wide d ON d.client_id = r.client_id AND d.customer_id = r.customer_id AND d.account_id = r.account_id
     AND d.direction = 'debit' AND d.amount = r.amount AND d.currency = r.currency
     AND d.date_time BETWEEN r.date_time - INTERVAL 7 DAY AND r.date_time
    JOIN class_keys dk ON dk.description = d.description AND dk.counterparty_name IS NOT DISTINCT FROM d.counterparty_name
     AND dk.direction = d.direction AND dk.category_l1 = d.category_l1 AND dk.category_l2 = d.category_l2
    WHERE r.direction = 'credit' AND list_contains(rk.keys, 'returned_direct_debit')
),
-- Both matchings at once: each credit takes its first choice; of credits whose first choice is the same debit, the
-- earliest keeps it and the later ones take their second.
candidates AS (
    SELECT 'card' AS matching, * FROM card_candidates
    UNION ALL
    SELECT 'return', * FROM reversal_candidates
),
claims AS (
    SELECT matching, client_id, customer_id, credit_id, debit_id,
           row_number() OVER (PARTITION BY matching, client_id, customer_id, debit_id ORDER BY credit_at, credit_id) AS claim
    FROM candidates WHERE pick = 1
),
matched AS (
    SELECT matching, client_id, customer_id, debit_id AS transaction_id FROM claims WHERE claim = 1
    UNION
    SELECT n.matching, n.client_id, n.customer_id, n.debit_id FROM candidates n
    JOIN claims f ON f.matching = n.matching AND f.client_id = n.client_id AND f.customer_id = n.customer_id AND f.credit_id = n.credit_id
    WHERE f.claim > 1 AND n.pick = 2
),
tx_keys AS (
    SELECT b.*, k.norm, k.source,
           CASE WHEN p.transaction_id IS NULL AND v.transaction_id IS NULL THEN k.kind END AS kind,
           CASE WHEN p.transaction_id IS NOT NULL OR v.transaction_id IS NOT NULL
                     THEN list_filter(k.keys, x -> x NOT IN ('expenditure', 'fixed', 'flexible') AND NOT starts_with(x, 'commitment:'))
                WHEN b.on_card AND b.direction = 'credit' THEN list_filter(k.keys, x -> x <> 'new_borrowing')
                ELSE k.keys END AS keys
    FROM base b
    JOIN class_keys k ON k.description = b.description AND k.counterparty_name IS NOT DISTINCT FROM b.counterparty_name
     AND k.direction = b.direction AND k.category_l1 = b.category_l1 AND k.category_l2 = b.category_l2
    LEFT JOIN matched p ON p.matching = 'card' AND p.client_id = b.client_id AND p.customer_id = b.customer_id AND p.transaction_id = b.transaction_id
    LEFT JOIN matched v ON v.matching = 'return' AND v.client_id = b.client_id AND v.customer_id = b.customer_id AND v.transaction_id = b.transaction_id
)
SELECT client_id, customer_id, transaction_id, account_id, date_time, date_time::DATE AS day, month, amount, direction,
       description, running_balance, norm, source, kind,
       CASE WHEN running_balance < 0 THEN list_append(keys, 'overdrawn') ELSE keys END AS keys
FROM tx_keys;

-- Days in overdraft and the deepest balance, per customer and range.
-- A day is in overdraft when an account's balance at the end of it was below
-- zero: the running balance after the day's last transaction, held until the
-- account's next transaction day (or the range's end). A range begins with
-- the account's last running balance of the month before it, held until its
-- first transaction day in the range: an account overdrawn from December into
-- January is overdrawn on the days of January before its first transaction
-- there. Only an account with a transaction in the range begins so (one with
-- none may be closed, or its feed stopped), and only from the month before
-- (an older balance says little of the range); otherwise those days are not
-- known, so not counted. Accounts whose transactions carry no running
-- balance add nothing. The deepest balance is the lowest of every running
-- balance in the range, of each range's opening balance, and of every balance
-- reported for the customer's accounts dated in the range (a debit balance
-- is negative); NULL when none is known. Credit card accounts are left out:
-- their balance is money owed, not an overdraft.
-- Reads the tables of queries/insights/scope, which must run first in the same transaction.
-- $account_ids  JSON array of account ids, or NULL for all
-- $currency     only balances in this currency count
WITH eod AS (
    SELECT client_id, customer_id, account_id, day, max_by(running_balance, (date_time, transaction_id)) AS balance
    FROM insight_tx
    WHERE running_balance IS NOT NULL
    GROUP BY ALL
),
-- Each account's balance as each range begins: its last running balance of the month before the range, from the
-- same transactions insight_tx takes (not declined, in the currency, of the accounts asked for, no credit card's),
-- for an account with a transaction in the range.
opening AS (
    SELECT t.client_id, t.customer_id, t.account_id, r.range_key, r.month_from AS day,
           max_by(t.running_balance, (t.date_time, t.transaction_id)) AS balance
    FROM transactions t
    JOIN insight_subjects s ON s.client_id = t.client_id AND s.customer_id = t.customer_id
    JOIN insight_ranges r ON t.month = (r.month_from - INTERVAL 1 MONTH)::DATE
    LEFT JOIN accounts a ON a.client_id = t.client_id AND a.customer_id = t.customer_id AND a.account_id = t.account_id
    WHERE t.running_balance IS NOT NULL AND t.status <> 'declined'
      AND ($currency::VARCHAR IS NULL OR t.currency = $currency::VARCHAR)
      AND coalesce(a.account_type, '') <> 'credit_card'
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), t.account_id))
      AND EXISTS (SELECT 1 FROM eod e WHERE e.client_id = t.client_id AND e.customer_id = t.customer_id AND e.account_id = t.account_id
                  AND e.day BETWEEN r.month_from AND r.range_end)
    GROUP BY ALL
),
-- The opening balances held on a range's first day, where the account has no transaction that day.
days AS (
    SELECT client_id, customer_id, account_id, day, balance FROM eod
    UNION
    SELECT o.client_id, o.customer_id, o.account_id, o.day, o.balance
    FROM opening o
    ANTI JOIN eod e ON e.client_id = o.client_id AND e.customer_id = o.customer_id AND e.account_id = o.account_id AND e.day = o.day
),
spans AS (
    SELECT *, lead(day) OVER (PARTITION BY client_id, customer_id, account_id ORDER BY day) AS next_day FROM days
),
overdrawn_days AS (
    SELECT s.client_id, s.customer_id, r.range_key,
           unnest(generate_series(s.day, least(coalesce(s.next_day - 1, r.range_end), r.range_end), INTERVAL 1 DAY))::DATE AS d
    FROM spans s JOIN insight_ranges r ON s.day BETWEEN r.month_from AND r.range_end
    WHERE s.balance < 0
),
day_counts AS (
    SELECT client_id, customer_id, range_key, count(DISTINCT d)::INTEGER AS days FROM overdrawn_days GROUP BY ALL
),
lows AS (
    SELECT tx.client_id, tx.customer_id, r.range_key, tx.running_balance AS balance
    FROM insight_tx tx JOIN insight_ranges r ON tx.month BETWEEN r.month_from AND r.month_to
    WHERE tx.running_balance IS NOT NULL
    UNION ALL
    SELECT client_id, customer_id, range_key, balance FROM opening
    UNION ALL
    SELECT b.client_id, b.customer_id, r.range_key, CASE WHEN b.credit_debit_indicator = 'debit' THEN -b.amount ELSE b.amount END
    FROM balances b
    JOIN insight_subjects s ON s.client_id = b.client_id AND s.customer_id = b.customer_id
    JOIN insight_ranges r ON b.date::DATE BETWEEN r.month_from AND r.range_end
    LEFT JOIN accounts a ON a.client_id = b.client_id AND a.customer_id = b.customer_id AND a.account_id = b.account_id
    WHERE b.currency = $currency
      AND coalesce(a.account_type, '') <> 'credit_card'
      AND ($account_ids IS NULL OR list_contains(from_json($account_ids::JSON, '["VARCHAR"]'), b.account_id))
),
deepest AS (
    SELECT client_id, customer_id, range_key, min(balance) AS deepest FROM lows GROUP BY ALL
)
SELECT s.client_id, s.customer_id, r.range_key,
       coalesce(dc.days, 0) AS days,
       d.deepest::DECIMAL(38,2)::VARCHAR AS deepest_balance
FROM insight_subjects s CROSS JOIN insight_ranges r
LEFT JOIN day_counts dc ON dc.client_id = s.client_id AND dc.customer_id = s.customer_id AND dc.range_key = r.range_key
LEFT JOIN deepest d ON d.client_id = s.client_id AND d.customer_id = s.customer_id AND d.range_key = r.range_key
ORDER BY s.client_id, s.customer_id, r.range_key;

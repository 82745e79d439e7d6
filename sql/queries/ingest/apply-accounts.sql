-- Upserts the staged accounts: per account the latest event wins (by occurred_at,
-- then event_id), and only over an older stored version.
CREATE OR REPLACE TEMP TABLE account_winners AS
WITH latest AS (
    -- The whole row of the latest event, as one value: a grouping, which costs less than a window over a few rows.
    SELECT unnest(arg_max(r, {'o': r.occurred_at, 'e': r.event_id}))
    FROM (SELECT * REPLACE (occurred_at::TIMESTAMP AS occurred_at) FROM stage_accounts) r
    GROUP BY r.client_id, r.customer_id, r.account_id
)
SELECT s.*, (a.account_id IS NOT NULL) AS existed
FROM latest s
LEFT JOIN accounts a ON a.client_id = s.client_id AND a.customer_id = s.customer_id AND a.account_id = s.account_id
WHERE a.account_id IS NULL OR s.occurred_at > a.occurred_at OR (s.occurred_at = a.occurred_at AND s.event_id > a.event_id);

DELETE FROM accounts a USING account_winners w
WHERE a.client_id = w.client_id AND a.customer_id = w.customer_id AND a.account_id = w.account_id;
DELETE FROM balances b USING account_winners w
WHERE b.client_id = w.client_id AND b.customer_id = w.customer_id AND b.account_id = w.account_id;

INSERT INTO accounts (client_id, customer_id, account_id, currency, holder_name, holder_relationship, account_name, account_type,
                      usage_type, provider, uk_account_number, uk_sort_code, occurred_at, event_id)
SELECT client_id, customer_id, account_id, currency, holder_name, holder_relationship, account_name, account_type,
       usage_type, provider, uk_account_number, uk_sort_code, occurred_at, event_id
FROM account_winners;

INSERT INTO balances (client_id, customer_id, account_id, position, date, amount, currency, type, credit_debit_indicator)
SELECT w.client_id, w.customer_id, w.account_id, b.position, b.date::TIMESTAMP, b.amount::DECIMAL(18,2), b.currency, b.type, b.credit_debit_indicator
FROM account_winners w JOIN stage_balances b ON b.event_id = w.event_id;

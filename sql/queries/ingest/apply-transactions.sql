-- Latest version wins: (occurred_at, event_id), compared with the stored row,
-- the newest deletion, and every earlier event of the batch. Each event is
-- judged as if the events had come one by one, so the counts do not depend
-- on batch size; replays and older versions change nothing.
CREATE OR REPLACE TEMP TABLE tx_events AS
WITH staged AS (
    SELECT seq, op, client_id, customer_id, transaction_id, event_id, occurred_at::TIMESTAMP AS occurred_at, NULL::DATE AS stored_month
    FROM stage_transactions
), stored AS (
    SELECT -1 AS seq, 'upsert' AS op, t.client_id, t.customer_id, t.transaction_id, t.event_id, t.occurred_at, t.month AS stored_month
    FROM transactions t SEMI JOIN staged s ON t.client_id = s.client_id AND t.customer_id = s.customer_id AND t.transaction_id = s.transaction_id
    UNION ALL
    SELECT -1, 'delete', d.client_id, d.customer_id, d.record_id, d.event_id, d.occurred_at, NULL
    FROM tombstones d SEMI JOIN staged s ON d.client_id = s.client_id AND d.customer_id = s.customer_id AND d.record_id = s.transaction_id
    WHERE d.record_type = 'transaction'
), versioned AS (
    SELECT *, strftime(occurred_at, '%Y-%m-%d %H:%M:%S.%f') || '|' || event_id AS version
    FROM (SELECT * FROM stored UNION ALL SELECT * FROM staged)
)
SELECT seq, op, version, client_id, customer_id, transaction_id,
       max(version) OVER earlier AS prior_version,
       arg_max(op, version) OVER earlier AS prior_op,
       max(stored_month) OVER whole AS old_month,
       max(version) OVER whole AS last_version
FROM versioned
WINDOW earlier AS (PARTITION BY client_id, customer_id, transaction_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
       whole AS (PARTITION BY client_id, customer_id, transaction_id);

-- The winner of a transaction is the newest version, when it is one of the
-- batch's events that applies (a replay of it later in the batch does not).
CREATE OR REPLACE TEMP TABLE tx_winners AS
SELECT s.*, e.old_month, (e.old_month IS NOT NULL) AS existed
FROM tx_events e
JOIN stage_transactions s ON s.seq = e.seq
WHERE e.seq >= 0 AND e.version = e.last_version AND (e.prior_version IS NULL OR e.version > e.prior_version);

INSERT INTO batch_affected_months
SELECT client_id, customer_id, old_month FROM tx_winners WHERE existed
UNION
SELECT client_id, customer_id, date_trunc('month', date_time::TIMESTAMP)::DATE FROM tx_winners WHERE op = 'upsert';

DELETE FROM transactions t USING tx_winners w
WHERE t.client_id = w.client_id AND t.customer_id = w.customer_id AND t.transaction_id = w.transaction_id;

DELETE FROM tombstones d USING tx_winners w
WHERE d.record_type = 'transaction' AND d.client_id = w.client_id AND d.customer_id = w.customer_id AND d.record_id = w.transaction_id;

INSERT INTO transactions (
    client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount, currency,
    date_time, month, status, category_l1, category_l1_confidence, category_l2, category_l2_confidence,
    regularity, merchant, tags, posted_date_time, value_date_time, merchant_category_code, counterparty_name,
    counterparty_identifier, running_balance, running_balance_currency, occurred_at, event_id)
SELECT client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount::DECIMAL(18,2), currency,
       date_time::TIMESTAMP, date_trunc('month', date_time::TIMESTAMP)::DATE, status, category_l1, category_l1_confidence,
       category_l2, category_l2_confidence, regularity::JSON, merchant::JSON, from_json(tags, '["VARCHAR"]'),
       posted_date_time::TIMESTAMP, value_date_time::TIMESTAMP, merchant_category_code, counterparty_name,
       counterparty_identifier, running_balance::DECIMAL(18,2), running_balance_currency, occurred_at::TIMESTAMP, event_id
FROM tx_winners
WHERE op = 'upsert';

INSERT INTO tombstones (record_type, client_id, customer_id, record_id, occurred_at, event_id)
SELECT 'transaction', client_id, customer_id, transaction_id, occurred_at::TIMESTAMP, event_id FROM tx_winners WHERE op = 'delete';

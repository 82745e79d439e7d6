-- Inserts the winning upserts, cast from their staged text, each with the
-- hash of its key (migration 018). No parameters.
INSERT INTO transactions (
    client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount, currency,
    date_time, month, status, category_l1, category_l1_confidence, category_l2, category_l2_confidence,
    regularity, merchant, tags, posted_date_time, value_date_time, merchant_category_code, counterparty_name,
    counterparty_identifier, running_balance, running_balance_currency, occurred_at, event_id, key_hash)
SELECT client_id, customer_id, transaction_id, account_id, provider, description, credit_debit_indicator, amount::DECIMAL(18,2), currency,
       date_time::TIMESTAMP, date_trunc('month', date_time::TIMESTAMP)::DATE, status, category_l1, category_l1_confidence,
       category_l2, category_l2_confidence, regularity::JSON, merchant::JSON, from_json(tags, '["VARCHAR"]'),
       posted_date_time::TIMESTAMP, value_date_time::TIMESTAMP, merchant_category_code, counterparty_name,
       counterparty_identifier, running_balance::DECIMAL(18,2), running_balance_currency, occurred_at::TIMESTAMP, event_id,
       transaction_key_hash(client_id, customer_id, transaction_id)
FROM stage_transactions s
SEMI JOIN (SELECT seq FROM tx_events WHERE winner AND op = 'upsert') w ON w.seq = s.seq;

-- Per-connection staging tables for one ingest batch. Everything arrives as
-- text from the Appender and is cast once, here in SQL.
CREATE TEMP TABLE IF NOT EXISTS stage_transactions (
    seq INTEGER, op VARCHAR, event_id VARCHAR, occurred_at VARCHAR, client_id VARCHAR, customer_id VARCHAR, transaction_id VARCHAR,
    account_id VARCHAR, provider VARCHAR, description VARCHAR, credit_debit_indicator VARCHAR, amount VARCHAR,
    currency VARCHAR, date_time VARCHAR, status VARCHAR, category_l1 VARCHAR, category_l1_confidence VARCHAR,
    category_l2 VARCHAR, category_l2_confidence VARCHAR, regularity VARCHAR, merchant VARCHAR, tags VARCHAR,
    posted_date_time VARCHAR, value_date_time VARCHAR, merchant_category_code VARCHAR, counterparty_name VARCHAR,
    counterparty_identifier VARCHAR, running_balance VARCHAR, running_balance_currency VARCHAR,
    -- Set only by the fast path (fast-rows.sql), whose rows are judged against their customer in SQL.
    customer_secret VARCHAR, fast BOOLEAN
);

CREATE TEMP TABLE IF NOT EXISTS stage_accounts (
    seq INTEGER, event_id VARCHAR, occurred_at VARCHAR, client_id VARCHAR, customer_id VARCHAR, account_id VARCHAR, currency VARCHAR,
    holder_name VARCHAR, holder_relationship VARCHAR, account_name VARCHAR, account_type VARCHAR, usage_type VARCHAR,
    provider VARCHAR, uk_account_number VARCHAR, uk_sort_code VARCHAR
);
CREATE TEMP TABLE IF NOT EXISTS stage_balances (
    event_id VARCHAR, position INTEGER, date VARCHAR, amount VARCHAR, currency VARCHAR, type VARCHAR, credit_debit_indicator VARCHAR
);
CREATE TEMP TABLE IF NOT EXISTS stage_applications (
    seq INTEGER, event_id VARCHAR, occurred_at VARCHAR, client_id VARCHAR, customer_id VARCHAR, application_id VARCHAR, body VARCHAR
);
CREATE TEMP TABLE IF NOT EXISTS stage_customers (
    customer_id VARCHAR, client_id VARCHAR, hosted BOOLEAN, secret_hash VARCHAR
);
CREATE TEMP TABLE IF NOT EXISTS stage_dead_letters (
    source VARCHAR, source_ref VARCHAR, line_number BIGINT, kafka_partition INTEGER, kafka_offset BIGINT,
    message_key VARCHAR, raw VARCHAR, reason VARCHAR, dedupe_key VARCHAR
);
CREATE TEMP TABLE IF NOT EXISTS tx_events (
    seq INTEGER, op VARCHAR, client_id VARCHAR, customer_id VARCHAR, transaction_id VARCHAR, prior_op VARCHAR,
    applied BOOLEAN, winner BOOLEAN, existed BOOLEAN, tombstoned BOOLEAN, old_month DATE, old_rowid BIGINT
);
-- The row ids of the stored transactions a batch's events name (judge-transactions.sql).
CREATE TEMP TABLE IF NOT EXISTS stored_rowids (id BIGINT);
-- The staged transactions whose stored rows are looked for, with their key
-- hashes (judge-stored-rows.sql and judge-stored-rows-of-few-customers.sql):
-- all but those of customers created in the segment (stage_customers), who
-- have no stored rows, as every transaction row has its customer's row.
CREATE OR REPLACE TEMP VIEW stored_rows_sought AS
SELECT s.client_id, s.customer_id, s.transaction_id,
       transaction_key_hash(s.client_id, s.customer_id, s.transaction_id) AS key_hash
FROM stage_transactions s
ANTI JOIN stage_customers c ON c.client_id = s.client_id AND c.customer_id = s.customer_id;
CREATE TEMP TABLE IF NOT EXISTS batch_months (client_id VARCHAR, customer_id VARCHAR, month DATE);
-- The changes to the totals of batch_months: a stored row to delete (old_rowid), a recomputed row to insert (the rest), or both.
CREATE TEMP TABLE IF NOT EXISTS batch_totals (
    old_rowid BIGINT, client_id VARCHAR, customer_id VARCHAR, account_id VARCHAR, month DATE, currency VARCHAR, category_l1 VARCHAR,
    category_l2 VARCHAR, direction VARCHAR, total DECIMAL(18,2), transaction_count INTEGER
);

-- Per-connection staging tables for one ingest batch. Everything arrives as
-- text from the Appender and is cast once, here in SQL.
CREATE TEMP TABLE IF NOT EXISTS stage_transactions (
    seq INTEGER, op VARCHAR, event_id VARCHAR, occurred_at VARCHAR, client_id VARCHAR, customer_id VARCHAR, transaction_id VARCHAR,
    account_id VARCHAR, provider VARCHAR, description VARCHAR, credit_debit_indicator VARCHAR, amount VARCHAR,
    currency VARCHAR, date_time VARCHAR, status VARCHAR, category_l1 VARCHAR, category_l1_confidence VARCHAR,
    category_l2 VARCHAR, category_l2_confidence VARCHAR, regularity VARCHAR, merchant VARCHAR, tags VARCHAR,
    posted_date_time VARCHAR, value_date_time VARCHAR, merchant_category_code VARCHAR, counterparty_name VARCHAR,
    counterparty_identifier VARCHAR, running_balance VARCHAR, running_balance_currency VARCHAR,
    -- Set only by the fast path (fast-parse.sql), whose rows are judged against their customer in SQL.
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
    applied BOOLEAN, winner BOOLEAN, existed BOOLEAN, tombstoned BOOLEAN, old_month DATE
);
CREATE TEMP TABLE IF NOT EXISTS batch_months (client_id VARCHAR, customer_id VARCHAR, month DATE);

-- The fast path's pieces (fast-parse.sql). Each takes one JSON value as
-- json_transform gives it (its JSON text): a string is its text between
-- quotes, as the fast path takes only lines without a backslash.
CREATE OR REPLACE TEMP MACRO fast_string(f) AS starts_with(f, '"');
CREATE OR REPLACE TEMP MACRO fast_text(f) AS f[2:-2];
-- A field's default, which the schema gives an upsert only (a deletion stages none).
CREATE OR REPLACE TEMP MACRO fast_default(upsert, v, d) AS CASE WHEN upsert THEN coalesce(v, d) END;
-- A member of an object written compactly: its key of n characters in quotes, a colon, its value, and a comma or the closing brace.
CREATE OR REPLACE TEMP MACRO fast_member(f, n) AS CASE WHEN f IS NULL THEN 0 ELSE n + 4 + strlen(f)::INTEGER END;
-- An array of strings written compactly.
CREATE OR REPLACE TEMP MACRO fast_array(l) AS 2 + coalesce(list_sum(list_transform(l, x -> strlen(x)::INTEGER)), 0)::INTEGER + greatest(len(l)::INTEGER - 1, 0);
CREATE OR REPLACE TEMP MACRO fast_text_max(f, n) AS f IS NULL OR (starts_with(f, '"') AND strlen(f) <= n + 2);
CREATE OR REPLACE TEMP MACRO fast_id(f) AS starts_with(f, '"') AND strlen(f) BETWEEN 3 AND 202;
-- An instant in one of the two forms the fast path takes, 'YYYY-MM-DDTHH:MM:SSZ' and
-- 'YYYY-MM-DDTHH:MM:SS.sssZ', on a real date and time of the years 1970 to 2100.
CREATE OR REPLACE TEMP MACRO fast_instant(f) AS
    regexp_full_match(f, '"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{3})?Z"')
    AND substr(f, 13, 2) <= '23' AND substr(f, 2, 4) BETWEEN '1970' AND '2100'
    AND TRY_CAST(substr(f, 2, 10) || ' ' || substr(f, 13, 8) AS TIMESTAMP) IS NOT NULL;
-- The instant as the schema normalises it (toISOString), and as the store's timestamp text (dbFromIso).
CREATE OR REPLACE TEMP MACRO fast_iso(f) AS substr(f, 2, 19) || CASE WHEN strlen(f) = 22 THEN '.000' ELSE substr(f, 21, 4) END || 'Z';
CREATE OR REPLACE TEMP MACRO fast_db_time(f) AS
    substr(f, 2, 10) || ' ' || substr(f, 13, 8) || CASE WHEN strlen(f) = 22 THEN '.000' ELSE substr(f, 21, 4) END;

-- Customers, their accounts, transactions and applications; the ingest
-- bookkeeping; and the monthly totals that every figure is read from.
-- Record versions are (occurred_at, event_id): the larger wins, whatever the
-- order of arrival, so a replay or an older version changes nothing.

CREATE TABLE customers (
    customer_id  VARCHAR NOT NULL PRIMARY KEY,
    client_id    VARCHAR NOT NULL,
    hosted       BOOLEAN NOT NULL,
    secret_hash  VARCHAR,            -- salted SHA-256 of the customer secret, never the secret
    created_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    updated_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE accounts (
    customer_id          VARCHAR NOT NULL,
    account_id           VARCHAR NOT NULL,
    currency             VARCHAR NOT NULL,
    holder_name          VARCHAR NOT NULL,
    holder_relationship  VARCHAR NOT NULL,
    account_name         VARCHAR NOT NULL,
    account_type         VARCHAR NOT NULL,
    usage_type           VARCHAR NOT NULL,
    provider             VARCHAR NOT NULL,
    uk_account_number    VARCHAR,
    uk_sort_code         VARCHAR,
    occurred_at          TIMESTAMP NOT NULL,
    event_id             VARCHAR NOT NULL,
    updated_at           TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE balances (
    customer_id            VARCHAR NOT NULL,
    account_id             VARCHAR NOT NULL,
    position               INTEGER NOT NULL,
    date                   TIMESTAMP NOT NULL,
    amount                 DECIMAL(18,2) NOT NULL,
    currency               VARCHAR NOT NULL,
    type                   VARCHAR NOT NULL,
    credit_debit_indicator VARCHAR NOT NULL
);

CREATE TABLE transactions (
    customer_id             VARCHAR NOT NULL,
    transaction_id          VARCHAR NOT NULL,
    account_id              VARCHAR NOT NULL,
    provider                VARCHAR NOT NULL,
    description             VARCHAR NOT NULL,
    credit_debit_indicator  VARCHAR NOT NULL,   -- credit | debit
    amount                  DECIMAL(18,2) NOT NULL,
    currency                VARCHAR NOT NULL,
    date_time               TIMESTAMP NOT NULL,
    month                   DATE NOT NULL,      -- first day of date_time's month
    status                  VARCHAR NOT NULL,   -- booked | pending | declined
    category_l1             VARCHAR NOT NULL,
    category_l1_confidence  VARCHAR,
    category_l2             VARCHAR NOT NULL,
    category_l2_confidence  VARCHAR,
    regularity              JSON,
    merchant                JSON,
    tags                    VARCHAR[] NOT NULL,
    posted_date_time        TIMESTAMP,
    value_date_time         TIMESTAMP,
    merchant_category_code  VARCHAR,
    counterparty_name       VARCHAR,
    counterparty_identifier VARCHAR,
    running_balance         DECIMAL(18,2),
    running_balance_currency VARCHAR,
    occurred_at             TIMESTAMP NOT NULL,
    event_id                VARCHAR NOT NULL,
    updated_at              TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- The newest deletion of a record, so that an older upsert arriving later
-- cannot bring it back.
CREATE TABLE tombstones (
    record_type  VARCHAR NOT NULL,     -- transaction
    customer_id  VARCHAR NOT NULL,
    record_id    VARCHAR NOT NULL,
    occurred_at  TIMESTAMP NOT NULL,
    event_id     VARCHAR NOT NULL
);

CREATE TABLE customer_applications (
    customer_id     VARCHAR NOT NULL,
    application_id  VARCHAR NOT NULL,
    body            JSON NOT NULL,       -- the application as received, normalised
    occurred_at     TIMESTAMP NOT NULL,
    event_id        VARCHAR NOT NULL,
    updated_at      TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Counts only transactions that are not declined: the same set the
-- transaction list returns by default, so links reproduce each total.
CREATE TABLE monthly_category_totals (
    customer_id        VARCHAR NOT NULL,
    account_id         VARCHAR NOT NULL,
    month              DATE NOT NULL,
    currency           VARCHAR NOT NULL,
    category_l1        VARCHAR NOT NULL,
    category_l2        VARCHAR NOT NULL,
    direction          VARCHAR NOT NULL,   -- credit | debit
    total              DECIMAL(18,2) NOT NULL,
    transaction_count  INTEGER NOT NULL
);

CREATE SEQUENCE dead_letter_ids START 1;

CREATE TABLE dead_letters (
    dead_letter_id  BIGINT NOT NULL DEFAULT nextval('dead_letter_ids'),
    source          VARCHAR NOT NULL,   -- file | kafka | http
    source_ref      VARCHAR NOT NULL,   -- file path, topic, or task id
    line_number     BIGINT,             -- files
    kafka_partition INTEGER,
    kafka_offset    BIGINT,
    message_key     VARCHAR,
    raw             VARCHAR NOT NULL,
    reason          VARCHAR NOT NULL,
    dedupe_key      VARCHAR NOT NULL,   -- one row per bad input, however often it is re-read
    created_at      TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Events that have effects beyond rows (deletions of customers, payments):
-- a replay must not repeat them.
CREATE TABLE handled_events (
    event_id    VARCHAR NOT NULL PRIMARY KEY,
    type        VARCHAR NOT NULL,
    handled_at  TIMESTAMP NOT NULL DEFAULT current_timestamp
);

CREATE TABLE ingest_offsets (
    topic           VARCHAR NOT NULL,
    kafka_partition INTEGER NOT NULL,
    next_offset     BIGINT NOT NULL,
    updated_at      TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (topic, kafka_partition)
);

CREATE SEQUENCE job_run_ids START 1;

CREATE TABLE job_runs (
    run_id       BIGINT NOT NULL DEFAULT nextval('job_run_ids') PRIMARY KEY,
    job_name     VARCHAR NOT NULL,
    trigger      VARCHAR NOT NULL,    -- schedule | cli | api
    status       VARCHAR NOT NULL,    -- running | succeeded | failed
    started_at   TIMESTAMP NOT NULL,
    finished_at  TIMESTAMP,
    detail       JSON
);

-- The monthly totals as they follow from the transactions, for the rebuild
-- job to compare against. Migration 007 redefines it through the one formula
-- (monthly_totals_of) that ingest also uses.
CREATE VIEW monthly_category_totals_computed AS
SELECT customer_id, account_id, month, currency, category_l1, category_l2,
       credit_debit_indicator AS direction,
       sum(amount)::DECIMAL(18,2) AS total,
       count(*)::INTEGER AS transaction_count
FROM transactions
WHERE status <> 'declined'
GROUP BY customer_id, account_id, month, currency, category_l1, category_l2, credit_debit_indicator;

-- A customer is identified by (client_id, customer_id): two clients may use
-- the same customer id and never see each other's data. Every table keyed by
-- customer gets client_id, filled in from customers. DuckDB cannot change a
-- primary key with ALTER, so each table is recreated (new table, copy, drop,
-- rename) with client_id in front of customer_id.
--
-- Rows of a customer that no longer exists are unreachable and are not
-- copied, except customer tombstones: the customers row is gone by design,
-- and the tombstone used to hold back older events of every client, so it is
-- copied once per client to keep doing so.

DROP VIEW monthly_category_totals_computed;

CREATE TABLE customers_new (
    client_id    VARCHAR NOT NULL,
    customer_id  VARCHAR NOT NULL,
    hosted       BOOLEAN NOT NULL,
    secret_hash  VARCHAR,            -- salted SHA-256 of the customer secret, never the secret
    created_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    updated_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    PRIMARY KEY (client_id, customer_id)
);
INSERT INTO customers_new SELECT client_id, customer_id, hosted, secret_hash, created_at, updated_at FROM customers;

CREATE TABLE accounts_new (
    client_id            VARCHAR NOT NULL,
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
INSERT INTO accounts_new SELECT c.client_id, a.* FROM accounts a JOIN customers c ON c.customer_id = a.customer_id;

CREATE TABLE balances_new (
    client_id              VARCHAR NOT NULL,
    customer_id            VARCHAR NOT NULL,
    account_id             VARCHAR NOT NULL,
    position               INTEGER NOT NULL,
    date                   TIMESTAMP NOT NULL,
    amount                 DECIMAL(18,2) NOT NULL,
    currency               VARCHAR NOT NULL,
    type                   VARCHAR NOT NULL,
    credit_debit_indicator VARCHAR NOT NULL
);
INSERT INTO balances_new SELECT c.client_id, b.* FROM balances b JOIN customers c ON c.customer_id = b.customer_id;

CREATE TABLE transactions_new (
    client_id               VARCHAR NOT NULL,
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
INSERT INTO transactions_new SELECT c.client_id, t.* FROM transactions t JOIN customers c ON c.customer_id = t.customer_id;

CREATE TABLE tombstones_new (
    record_type  VARCHAR NOT NULL,     -- transaction | customer
    client_id    VARCHAR NOT NULL,
    customer_id  VARCHAR NOT NULL,
    record_id    VARCHAR NOT NULL,
    occurred_at  TIMESTAMP NOT NULL,
    event_id     VARCHAR NOT NULL
);
INSERT INTO tombstones_new
SELECT d.record_type, c.client_id, d.customer_id, d.record_id, d.occurred_at, d.event_id
FROM tombstones d JOIN customers c ON c.customer_id = d.customer_id
WHERE d.record_type <> 'customer'
UNION ALL
SELECT d.record_type, k.client_id, d.customer_id, d.record_id, d.occurred_at, d.event_id
FROM tombstones d CROSS JOIN api_clients k
WHERE d.record_type = 'customer';

CREATE TABLE customer_applications_new (
    client_id       VARCHAR NOT NULL,
    customer_id     VARCHAR NOT NULL,
    application_id  VARCHAR NOT NULL,
    body            JSON NOT NULL,       -- the application as received, normalised
    occurred_at     TIMESTAMP NOT NULL,
    event_id        VARCHAR NOT NULL,
    updated_at      TIMESTAMP NOT NULL DEFAULT current_timestamp
);
INSERT INTO customer_applications_new
SELECT c.client_id, a.* FROM customer_applications a JOIN customers c ON c.customer_id = a.customer_id;

CREATE TABLE monthly_category_totals_new (
    client_id          VARCHAR NOT NULL,
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
INSERT INTO monthly_category_totals_new
SELECT c.client_id, m.* FROM monthly_category_totals m JOIN customers c ON c.customer_id = m.customer_id;

DROP TABLE accounts;
ALTER TABLE accounts_new RENAME TO accounts;
DROP TABLE balances;
ALTER TABLE balances_new RENAME TO balances;
DROP TABLE transactions;
ALTER TABLE transactions_new RENAME TO transactions;
DROP TABLE tombstones;
ALTER TABLE tombstones_new RENAME TO tombstones;
DROP TABLE customer_applications;
ALTER TABLE customer_applications_new RENAME TO customer_applications;
DROP TABLE monthly_category_totals;
ALTER TABLE monthly_category_totals_new RENAME TO monthly_category_totals;
DROP TABLE customers;
ALTER TABLE customers_new RENAME TO customers;

-- The monthly totals as they follow from the transactions, for the rebuild
-- job to compare against. Migration 007 redefines it through the one formula
-- (monthly_totals_of) that ingest also uses.
CREATE VIEW monthly_category_totals_computed AS
SELECT client_id, customer_id, account_id, month, currency, category_l1, category_l2,
       credit_debit_indicator AS direction,
       sum(amount)::DECIMAL(18,2) AS total,
       count(*)::INTEGER AS transaction_count
FROM transactions
WHERE status <> 'declined'
GROUP BY client_id, customer_id, account_id, month, currency, category_l1, category_l2, credit_debit_indicator;

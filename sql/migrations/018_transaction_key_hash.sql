-- A hash of each transaction's key (client_id, customer_id, transaction_id)
-- in its row, so that the ingest finds the stored rows of a batch's
-- transactions by reading one column of eight bytes instead of three text
-- columns (see judge-transactions.sql). It is DuckDB's hash(), which DuckDB
-- does not promise to keep the same from one version to the next: the table
-- below holds what it gave for a few fixed keys when the rows were hashed,
-- and the store checks it at every open, dropping every row's hash when it
-- changed (src/db/key-hashes.ts); a row without a hash is then found by its
-- key columns, as before. The column is the store's own: the exports and
-- the snapshot leave it out.
--
-- The table is made again with the column rather than altered: in a file of
-- DuckDB's older storage format, written before the store's row groups were
-- 16,384 rows (see attach-store.sql), DuckDB 1.5 failed the first append
-- after a column was added to the table ("Could not find node in column
-- segment tree") and invalidated the store. Made again, every row gets its
-- hash here, and the table its row groups of 16,384 rows.

-- The one definition of the hash, used where rows are stored and where they
-- are looked for.
CREATE MACRO transaction_key_hash(client_id, customer_id, transaction_id) AS hash(client_id, customer_id, transaction_id);

CREATE TABLE transactions_keyed (
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
    updated_at              TIMESTAMP NOT NULL DEFAULT current_timestamp,
    key_hash                UBIGINT             -- transaction_key_hash(client_id, customer_id, transaction_id)
);
INSERT INTO transactions_keyed SELECT *, transaction_key_hash(client_id, customer_id, transaction_id) FROM transactions;
DROP TABLE transactions;
ALTER TABLE transactions_keyed RENAME TO transactions;

CREATE TABLE transaction_key_hashing (
    canary  VARCHAR NOT NULL
);

-- What the hash gives for fixed keys (short and long texts, non-ASCII, the
-- same characters split differently), as text: when the running DuckDB
-- gives another text, its hash is not the one the rows were hashed with.
CREATE MACRO transaction_key_hash_canary() AS [
    transaction_key_hash('', '', ''),
    transaction_key_hash('client', 'customer-1', 'transaction-1'),
    transaction_key_hash('ab', 'c', 'd'),
    transaction_key_hash('a', 'bc', 'd'),
    transaction_key_hash(repeat('x', 100), 'é', '漢字')
]::VARCHAR;

-- Recorded with the hashes made above, in the same transaction.
INSERT INTO transaction_key_hashing VALUES (transaction_key_hash_canary());

-- Webhook subscriptions, the persistent outbox of deliveries with their
-- attempt log, the ES256 keys that sign X-Signature, and the asynchronous
-- tasks (refresh, first-party ingestion).
--
-- No UNIQUE constraints besides primary keys: DuckDB rejects a delete and a
-- re-insert of the same key in one transaction, and the code that writes
-- these tables already runs on the single writer connection.

CREATE TABLE webhook_subscriptions (
    subscription_id  VARCHAR NOT NULL PRIMARY KEY,
    client_id        VARCHAR NOT NULL,
    url              VARCHAR NOT NULL,
    events           VARCHAR[] NOT NULL,
    headers          JSON NOT NULL,        -- {name: value}, sent as given
    secret           VARCHAR,              -- HMAC key of X-Token-Signature; must be usable, so not hashed
    active           BOOLEAN NOT NULL,
    created_at       TIMESTAMP NOT NULL,
    updated_at       TIMESTAMP NOT NULL
);

-- One row per (event, subscription): the exact body is fixed when the event
-- is enqueued, so every redelivery sends the same bytes with the same HMAC.
CREATE TABLE webhook_outbox (
    delivery_id       VARCHAR NOT NULL PRIMARY KEY,
    event_key         VARCHAR NOT NULL,    -- what caused it (event_id, task_id): a replay enqueues nothing twice
    event             VARCHAR NOT NULL,    -- e.g. customers.deleted
    client_id         VARCHAR NOT NULL,
    customer_id       VARCHAR,             -- null for events that concern no one customer (ingestion)
    subscription_id   VARCHAR NOT NULL,
    body              VARCHAR NOT NULL,
    status            VARCHAR NOT NULL,    -- pending | delivered | failed | cancelled
    attempts          INTEGER NOT NULL,
    next_attempt_at   TIMESTAMP,           -- null once no attempt is due
    last_status_code  INTEGER,
    last_error        VARCHAR,
    created_at        TIMESTAMP NOT NULL,
    updated_at        TIMESTAMP NOT NULL
);

CREATE TABLE webhook_attempts (
    delivery_id      VARCHAR NOT NULL,
    attempt          INTEGER NOT NULL,     -- 1 is the delivery, 2..11 the redeliveries
    started_at       TIMESTAMP NOT NULL,
    status_code      INTEGER,              -- null when no response came (timeout, refused)
    error            VARCHAR,
    latency_ms       INTEGER NOT NULL,
    outcome          VARCHAR NOT NULL,     -- delivered | retry | failed
    next_attempt_at  TIMESTAMP,
    PRIMARY KEY (delivery_id, attempt)
);

-- Published as JWKS at /.well-known/jwks.json; key_id is the JWK thumbprint.
CREATE TABLE webhook_signing_keys (
    key_id       VARCHAR NOT NULL PRIMARY KEY,
    private_jwk  VARCHAR NOT NULL,
    public_jwk   VARCHAR NOT NULL,
    created_at   TIMESTAMP NOT NULL
);

CREATE TABLE tasks (
    task_id               VARCHAR NOT NULL PRIMARY KEY,
    task_type             VARCHAR NOT NULL,    -- refresh | ingestion
    client_id             VARCHAR NOT NULL,
    customer_id           VARCHAR,             -- refresh only: an ingestion spans customers
    provider              VARCHAR,
    status                VARCHAR NOT NULL,    -- Pending | Completed | Failed
    result                VARCHAR,             -- success, or a code_id of the interface
    step                  INTEGER NOT NULL,
    has_new_transactions  BOOLEAN,
    reconnect_required    BOOLEAN NOT NULL,
    watermark             TIMESTAMP,           -- refresh: newest transactions.updated_at it saw
    detail                JSON NOT NULL,       -- request options, ingestion counts
    created_at            TIMESTAMP NOT NULL,
    updated_at            TIMESTAMP NOT NULL,
    completed_at          TIMESTAMP
);

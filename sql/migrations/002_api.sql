-- Tables of the read API: API clients (tenants that call it), the bucket
-- definitions they create, and the key that signs access tokens.

CREATE TABLE api_clients (
    client_id    VARCHAR NOT NULL PRIMARY KEY,
    name         VARCHAR NOT NULL,
    secret_hash  VARCHAR NOT NULL,      -- salted SHA-256 of the client secret, never the secret
    created_at   TIMESTAMP NOT NULL DEFAULT current_timestamp,
    updated_at   TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- A definition as created (additional_data included) in `body`; its criteria
-- flattened into bucket_criteria, which the totals join against
-- monthly_category_totals. No keys on bucket_criteria: a replace deletes and
-- re-inserts rows in one transaction, and validation already forbids a pair
-- mapped twice. The rows of the predefined core-dashboard (bucket_id
-- 'core-dashboard') are written from src/domain/core-dashboard.ts at start-up.
CREATE TABLE bucket_definitions (
    bucket_id             VARCHAR NOT NULL PRIMARY KEY,
    client_id             VARCHAR NOT NULL,
    name                  VARCHAR NOT NULL,
    categorisation_model  VARCHAR NOT NULL,
    body                  JSON NOT NULL,
    created_at            TIMESTAMP NOT NULL,
    updated_at            TIMESTAMP NOT NULL
);

CREATE TABLE bucket_criteria (
    bucket_id    VARCHAR NOT NULL,
    position     INTEGER NOT NULL,
    bucket_l1    VARCHAR NOT NULL,
    bucket_l2    VARCHAR NOT NULL,
    category_l1  VARCHAR NOT NULL,
    category_l2  VARCHAR NOT NULL
);

-- Used only when AFFORD_TOKEN_SECRET is not set: generated once, then kept.
CREATE TABLE api_signing_keys (
    key_id      VARCHAR NOT NULL PRIMARY KEY,
    secret      VARCHAR NOT NULL,
    created_at  TIMESTAMP NOT NULL DEFAULT current_timestamp
);

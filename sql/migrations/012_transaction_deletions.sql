-- When each transaction deletion was written, so that the transaction list's
-- updated_after can also name the transactions deleted since then (as the
-- reference API does, in metadata.deleted), and a synced copy can drop them.
-- Tombstones keep the deletion's upstream time (occurred_at), which may be
-- older than when it reached the store; a copy synced in between would miss
-- it. updated_at is when the deletion was written, by the store's clock, as
-- transactions.updated_at is for a transaction written.
-- Deletions already kept as tombstones count as written now: a copy may be
-- told of one twice, never not at all.
-- Parameters: none.
CREATE TABLE transaction_deletions (
    client_id       VARCHAR NOT NULL,
    customer_id     VARCHAR NOT NULL,
    transaction_id  VARCHAR NOT NULL,
    updated_at      TIMESTAMP NOT NULL   -- when the deletion was written
);

INSERT INTO transaction_deletions (client_id, customer_id, transaction_id, updated_at)
SELECT client_id, customer_id, record_id, current_timestamp
FROM tombstones
WHERE record_type = 'transaction';

-- One row per rotation of a client's secret. A token carries the number of
-- rotations its client had when it was issued (its generation); once the
-- count moves on, every earlier token (refresh tokens included) is refused.
-- A table of its own rather than a column on api_clients: rows are only
-- ever added, and no existing table is altered.
CREATE TABLE api_client_secret_rotations (
    client_id   VARCHAR NOT NULL,
    rotated_at  TIMESTAMP NOT NULL DEFAULT current_timestamp
);

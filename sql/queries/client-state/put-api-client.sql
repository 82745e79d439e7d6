-- An API client as a client-state change holds it: the client row, and one
-- secret-rotation row per rotation, so that its token generation is the
-- writer's.
-- Parameters: $client_id, $name, $secret_hash, $token_generation, $created_at, $updated_at.
INSERT INTO api_clients (client_id, name, secret_hash, created_at, updated_at)
VALUES ($client_id, $name, $secret_hash, $created_at::TIMESTAMP, $updated_at::TIMESTAMP)
ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, secret_hash = excluded.secret_hash, updated_at = excluded.updated_at;
DELETE FROM api_client_secret_rotations WHERE client_id = $client_id;
INSERT INTO api_client_secret_rotations (client_id, rotated_at)
SELECT $client_id, $updated_at::TIMESTAMP FROM range($token_generation::BIGINT);

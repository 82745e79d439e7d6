-- One API client with its secret's hash; token_generation counts its secret
-- rotations, so that tokens issued before a rotation stop working.
-- Parameters: $client_id.
SELECT c.client_id, c.name, c.secret_hash, c.created_at,
       (SELECT count(*) FROM api_client_secret_rotations r WHERE r.client_id = c.client_id) AS token_generation
FROM api_clients c
WHERE c.client_id = $client_id;

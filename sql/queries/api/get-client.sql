SELECT client_id, name, secret_hash, coalesce(token_generation, 0) AS token_generation, created_at
FROM api_clients
WHERE client_id = $client_id;

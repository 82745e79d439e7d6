UPDATE api_clients
SET secret_hash = $secret_hash,
    name = $name,
    token_generation = coalesce(token_generation, 0) + 1,
    updated_at = current_timestamp
WHERE client_id = $client_id;

SELECT client_id, name, secret_hash, created_at
FROM api_clients
WHERE client_id = $client_id;

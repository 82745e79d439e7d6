UPDATE api_clients
SET secret_hash = $secret_hash, name = $name, updated_at = current_timestamp
WHERE client_id = $client_id;

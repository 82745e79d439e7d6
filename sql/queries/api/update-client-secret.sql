-- Gives an API client a new secret hash and name.
-- Parameters: $client_id, $name, $secret_hash.
UPDATE api_clients
SET secret_hash = $secret_hash, name = $name, updated_at = current_timestamp
WHERE client_id = $client_id;

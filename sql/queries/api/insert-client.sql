-- Stores a new API client with its secret's salted hash (never the secret).
-- Parameters: $client_id, $name, $secret_hash.
INSERT INTO api_clients (client_id, name, secret_hash)
VALUES ($client_id, $name, $secret_hash);

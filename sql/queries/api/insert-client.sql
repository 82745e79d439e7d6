INSERT INTO api_clients (client_id, name, secret_hash)
VALUES ($client_id, $name, $secret_hash);

-- Every API client, oldest first, without secrets.
SELECT client_id, name, created_at
FROM api_clients
ORDER BY created_at, client_id;

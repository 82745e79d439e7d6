-- An API client removed by a client-state change (a tombstone).
-- Parameters: $client_id.
DELETE FROM api_clients WHERE client_id = $client_id;
DELETE FROM api_client_secret_rotations WHERE client_id = $client_id;

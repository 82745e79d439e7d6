INSERT INTO api_client_secret_rotations (client_id)
VALUES ($client_id);

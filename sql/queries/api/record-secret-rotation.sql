-- Records one rotation of a client's secret: tokens of an earlier generation are refused.
-- Parameters: $client_id.
INSERT INTO api_client_secret_rotations (client_id)
VALUES ($client_id);

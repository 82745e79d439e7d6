-- Stores a new bucket definition of a client; its criteria are inserted separately.
-- Parameters: $body, $bucket_id, $categorisation_model, $client_id, $name, $now.
INSERT INTO bucket_definitions (bucket_id, client_id, name, categorisation_model, body, created_at, updated_at)
VALUES ($bucket_id, $client_id, $name, $categorisation_model, $body::JSON, $now::TIMESTAMP, $now::TIMESTAMP);

-- Replaces a client's bucket definition (its criteria are replaced separately).
-- Parameters: $body, $bucket_id, $categorisation_model, $client_id, $name, $now.
UPDATE bucket_definitions
SET name = $name, categorisation_model = $categorisation_model, body = $body::JSON, updated_at = $now::TIMESTAMP
WHERE bucket_id = $bucket_id AND client_id = $client_id;

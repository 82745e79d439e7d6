-- One bucket definition of a client, its body as JSON text.
-- Parameters: $bucket_id, $client_id.
SELECT bucket_id, client_id, name, categorisation_model, body::VARCHAR AS body, created_at, updated_at
FROM bucket_definitions
WHERE bucket_id = $bucket_id AND client_id = $client_id;

-- A client's bucket definitions, oldest first, their bodies as JSON text.
-- Parameters: $client_id.
SELECT bucket_id, client_id, name, categorisation_model, body::VARCHAR AS body, created_at, updated_at
FROM bucket_definitions
WHERE client_id = $client_id
ORDER BY created_at, bucket_id;

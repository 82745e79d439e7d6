-- Deletes a client's bucket definition; another client's is left alone.
-- Parameters: $bucket_id, $client_id.
DELETE FROM bucket_definitions
WHERE bucket_id = $bucket_id AND client_id = $client_id;

DELETE FROM bucket_definitions
WHERE bucket_id = $bucket_id AND client_id = $client_id;

DELETE FROM bucket_criteria
WHERE bucket_id = $bucket_id;

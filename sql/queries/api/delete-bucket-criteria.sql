-- Removes every criterion of a bucket definition (before its new criteria are
-- inserted, or when it is deleted).
-- Parameters: $bucket_id.
DELETE FROM bucket_criteria
WHERE bucket_id = $bucket_id;

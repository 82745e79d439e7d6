-- A bucket definition removed by a client-state change (a tombstone).
-- Parameters: $bucket_id.
DELETE FROM bucket_definitions WHERE bucket_id = $bucket_id;
DELETE FROM bucket_criteria WHERE bucket_id = $bucket_id;

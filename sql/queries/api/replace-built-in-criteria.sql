-- The predefined definition lives in code; its criteria rows are rewritten
-- at start-up so that the totals join sees the current mapping.
-- Parameters: $bucket_id, $rows.
DELETE FROM bucket_criteria WHERE bucket_id = $bucket_id;

INSERT INTO bucket_criteria (bucket_id, position, bucket_l1, bucket_l2, category_l1, category_l2)
SELECT $bucket_id, r.position, r.bucket_l1, r.bucket_l2, r.category_l1, r.category_l2
FROM (
    SELECT unnest(from_json($rows::JSON,
        '[{"position":"INTEGER","bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]')) AS r
);

-- A bucket definition as a client-state change holds it, with its criteria
-- rows for the totals join. $rows: a JSON array of criterion rows.
-- Parameters: $bucket_id, $client_id, $name, $categorisation_model, $body, $created_at, $updated_at, $rows.
INSERT INTO bucket_definitions (bucket_id, client_id, name, categorisation_model, body, created_at, updated_at)
VALUES ($bucket_id, $client_id, $name, $categorisation_model, $body::JSON, $created_at::TIMESTAMP, $updated_at::TIMESTAMP)
ON CONFLICT (bucket_id) DO UPDATE SET name = excluded.name, categorisation_model = excluded.categorisation_model,
    body = excluded.body, updated_at = excluded.updated_at;
DELETE FROM bucket_criteria WHERE bucket_id = $bucket_id;
INSERT INTO bucket_criteria (bucket_id, position, bucket_l1, bucket_l2, category_l1, category_l2)
SELECT $bucket_id, r.position, r.bucket_l1, r.bucket_l2, r.category_l1, r.category_l2
FROM (
    SELECT unnest(from_json($rows::JSON,
        '[{"position":"INTEGER","bucket_l1":"VARCHAR","bucket_l2":"VARCHAR","category_l1":"VARCHAR","category_l2":"VARCHAR"}]')) AS r
);

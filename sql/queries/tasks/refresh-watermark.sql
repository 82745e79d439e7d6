-- has_new_transactions: did transactions arrive for the customer since their
-- previous completed refresh? Every upsert rewrites its row with a fresh
-- updated_at and writes are serialised, so the newest updated_at grows
-- exactly when transactions arrive; each refresh keeps the one it saw.
-- Parameters: $client_id, $customer_id, $task_id.
WITH seen_now AS (
    SELECT max(updated_at) AS watermark FROM transactions WHERE client_id = $client_id AND customer_id = $customer_id
), seen_before AS (
    SELECT watermark
    FROM tasks
    WHERE task_type = 'refresh' AND client_id = $client_id AND customer_id = $customer_id AND status = 'Completed' AND task_id <> $task_id
    ORDER BY completed_at DESC
    LIMIT 1
)
SELECT seen_now.watermark::VARCHAR AS watermark,
       coalesce(seen_now.watermark > seen_before.watermark, seen_now.watermark IS NOT NULL) AS has_new_transactions
FROM seen_now
LEFT JOIN seen_before ON true;

-- Stores a new task; optional fields are NULL when not given.
-- Parameters: $client_id, $completed_at, $customer_id, $detail, $has_new_transactions, $now, $provider, $result, $status, $step, $task_id, $task_type.
INSERT INTO tasks (task_id, task_type, client_id, customer_id, provider, status, result, step, has_new_transactions,
                   reconnect_required, watermark, detail, created_at, updated_at, completed_at)
VALUES ($task_id, $task_type, $client_id, $customer_id::VARCHAR, $provider::VARCHAR, $status, $result::VARCHAR, $step::INTEGER,
        $has_new_transactions::BOOLEAN, false, NULL, $detail::JSON, $now::TIMESTAMP, $now::TIMESTAMP, $completed_at::TIMESTAMP);

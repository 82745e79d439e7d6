-- One task (refresh or ingestion) by its id.
-- Parameters: $task_id.
SELECT task_id, task_type, client_id, customer_id, provider, status, result, step, has_new_transactions, reconnect_required,
       detail::VARCHAR AS detail, created_at, updated_at, completed_at
FROM tasks
WHERE task_id = $task_id;

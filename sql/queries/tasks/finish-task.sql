-- Only a pending task finishes, and only once.
-- Parameters: $has_new_transactions, $now, $result, $status, $step, $task_id, $watermark.
UPDATE tasks
SET status = $status,
    result = $result,
    step = $step::INTEGER,
    has_new_transactions = $has_new_transactions::BOOLEAN,
    watermark = $watermark::TIMESTAMP,
    updated_at = $now::TIMESTAMP,
    completed_at = $now::TIMESTAMP
WHERE task_id = $task_id AND status = 'Pending'
RETURNING task_id;

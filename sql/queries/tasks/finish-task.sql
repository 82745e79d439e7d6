-- Only a pending task finishes, and only once.
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

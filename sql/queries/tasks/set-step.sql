-- Moves a pending task to its next step; a finished task is left alone.
-- Parameters: $now, $step, $task_id.
UPDATE tasks SET step = $step::INTEGER, updated_at = $now::TIMESTAMP
WHERE task_id = $task_id AND status = 'Pending';

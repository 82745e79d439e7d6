UPDATE tasks SET step = $step::INTEGER, updated_at = $now::TIMESTAMP
WHERE task_id = $task_id AND status = 'Pending';

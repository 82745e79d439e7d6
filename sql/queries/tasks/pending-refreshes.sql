-- Refreshes cut off by a stop or a crash: they are run again at start.
SELECT task_id FROM tasks WHERE task_type = 'refresh' AND status = 'Pending' ORDER BY created_at;

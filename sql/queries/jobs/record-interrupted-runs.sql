-- Records as failed the runs that a process stopped (or killed) left
-- 'running'. Run by the service as it starts: it holds the store alone, so
-- none of them can still be going. Returns how many there were.
-- Parameters: $detail.
UPDATE job_runs
SET status = 'failed', finished_at = current_timestamp::TIMESTAMP, detail = $detail::JSON
WHERE status = 'running'
RETURNING run_id;

-- Records how a job run ended, with its detail as JSON.
-- Parameters: $detail, $run_id, $status.
UPDATE job_runs
SET status = $status, finished_at = current_timestamp::TIMESTAMP, detail = $detail::JSON
WHERE run_id = $run_id;

UPDATE job_runs
SET status = $status, finished_at = current_timestamp::TIMESTAMP, detail = $detail::JSON
WHERE run_id = $run_id;

-- Records that a job run started and returns its run_id.
-- Parameters: $job_name, $trigger.
INSERT INTO job_runs (job_name, trigger, status, started_at)
VALUES ($job_name, $trigger, 'running', current_timestamp::TIMESTAMP)
RETURNING run_id;

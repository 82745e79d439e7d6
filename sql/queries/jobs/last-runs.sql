-- The latest run of each job, its times as ISO instants.
SELECT job_name, status, strftime(started_at, '%Y-%m-%dT%H:%M:%SZ') AS started_at,
       strftime(finished_at, '%Y-%m-%dT%H:%M:%SZ') AS finished_at
FROM job_runs
QUALIFY row_number() OVER (PARTITION BY job_name ORDER BY run_id DESC) = 1;

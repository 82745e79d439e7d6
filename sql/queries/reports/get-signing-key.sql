-- The report signing key: the oldest one, so that every process signs with the same.
-- No parameters.
SELECT key_id, secret
FROM report_signing_keys
ORDER BY created_at, key_id
LIMIT 1;

-- The token signing key: the oldest one, so that every process signs with the same.
SELECT key_id, secret
FROM api_signing_keys
ORDER BY created_at, key_id
LIMIT 1;

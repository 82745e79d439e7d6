SELECT key_id, secret
FROM api_signing_keys
ORDER BY created_at, key_id
LIMIT 1;

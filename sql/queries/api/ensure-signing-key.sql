-- Generated once: a second start keeps the first key, so tokens stay valid.
-- Parameters: $key_id, $secret.
INSERT INTO api_signing_keys (key_id, secret)
SELECT $key_id, $secret
WHERE NOT EXISTS (SELECT 1 FROM api_signing_keys);

-- Newest first: the first one signs, all of them are published.
SELECT key_id, private_jwk, public_jwk
FROM webhook_signing_keys
ORDER BY created_at DESC, key_id;

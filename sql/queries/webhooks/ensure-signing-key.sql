-- Generated once: a second start keeps the first key, so receivers' cached JWKS stay valid.
-- Parameters: $key_id, $now, $private_jwk, $public_jwk.
INSERT INTO webhook_signing_keys (key_id, private_jwk, public_jwk, created_at)
SELECT $key_id, $private_jwk, $public_jwk, $now::TIMESTAMP
WHERE NOT EXISTS (SELECT 1 FROM webhook_signing_keys);

-- The report signing key, generated once: a second start keeps the first, so
-- that the PDFs made before it still verify.
-- Parameters: $key_id, $secret.
INSERT INTO report_signing_keys (key_id, secret)
SELECT $key_id, $secret
WHERE NOT EXISTS (SELECT 1 FROM report_signing_keys);

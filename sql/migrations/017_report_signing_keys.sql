-- The key that signs report PDFs (src/reports/report-signature.ts): a PDF
-- afford hands out ends with an HMAC of its bytes under this key, so that
-- verification can tell a file as afford made it from one changed since
-- (its printed pages included). Generated on first use and kept; like the
-- token signing key it stays in the live file (the snapshot copies an
-- allow-list of tables, and this is not on it).
CREATE TABLE report_signing_keys (
    key_id      VARCHAR NOT NULL PRIMARY KEY,
    secret      VARCHAR NOT NULL,
    created_at  TIMESTAMP NOT NULL DEFAULT current_timestamp
);

-- Records the canary of the hash the running DuckDB computes, by which the
-- transactions' key hashes are (or are about to be) made. No parameters.
DELETE FROM transaction_key_hashing;
INSERT INTO transaction_key_hashing VALUES (transaction_key_hash_canary());

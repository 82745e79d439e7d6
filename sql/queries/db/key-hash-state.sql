-- Whether the transactions' key hashes were made by the hash the running
-- DuckDB computes (see migration 018): the canary stored when they were
-- made (NULL before any was), and the one computed now. No parameters.
SELECT (SELECT any_value(canary) FROM transaction_key_hashing) AS stored,
       transaction_key_hash_canary() AS current;

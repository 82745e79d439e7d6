-- Judges every staged transaction event: latest version wins, by
-- (occurred_at, event_id), against the stored row, the newest deletion, and
-- every earlier event of the batch. Each event is judged as if the events had
-- come one by one, so the counts do not depend on batch size; replays and
-- older versions change nothing. A winner is the newest version of its
-- transaction when it applies (a replay of it later in the batch does not).
-- old_rowid is the stored row's row id, which stays the same until the
-- transaction ends: remove-replaced-transactions deletes by it, rather than
-- joining the whole table on the key again.
-- Fills the temp table tx_events (made once by stage-create); no parameters.
--
-- The stored rows of the batch's transactions were found first, their row
-- ids put in stored_rowids (judge-stored-rows.sql, or
-- judge-stored-rows-of-few-customers.sql); their versions are read here by
-- row id. Which transactions are contested, and which stored deletions
-- belong to the batch, is found by a hash of each version's key
-- (transaction_key_hash, computed here: the stored key_hash column is not
-- relied on): grouping and joining one 8-byte value rather than three text
-- keys. The window still orders each transaction by its own key, so two
-- keys that share a hash only take the longer way, to the same outcome.
INSERT INTO tx_events
WITH staged AS MATERIALIZED (
    SELECT seq, op, client_id, customer_id, transaction_id, occurred_at, event_id,
           transaction_key_hash(client_id, customer_id, transaction_id) AS h
    FROM stage_transactions
), stored AS MATERIALIZED (
    SELECT -1 AS seq, 'upsert' AS op, t.client_id, t.customer_id, t.transaction_id, {'o': t.occurred_at, 'e': t.event_id} AS v, t.month AS stored_month,
           t.rowid AS stored_rowid, transaction_key_hash(t.client_id, t.customer_id, t.transaction_id) AS h
    FROM transactions t WHERE t.rowid IN (SELECT id FROM stored_rowids)
    UNION ALL
    SELECT -1, 'delete', d.client_id, d.customer_id, d.record_id, {'o': d.occurred_at, 'e': d.event_id}, NULL, NULL,
           transaction_key_hash(d.client_id, d.customer_id, d.record_id)
    FROM tombstones d SEMI JOIN staged s ON transaction_key_hash(d.client_id, d.customer_id, d.record_id) = s.h
    WHERE d.record_type = 'transaction'
), contested AS MATERIALIZED (
    -- Transactions with more than one version in sight, by their keys' hashes: only these need ordering.
    SELECT h FROM (SELECT h FROM stored UNION ALL SELECT h FROM staged) GROUP BY h HAVING count(*) > 1
), versions AS (
    SELECT seq, op, client_id, customer_id, transaction_id, {'o': occurred_at::TIMESTAMP, 'e': event_id} AS v, NULL::DATE AS stored_month,
           NULL::BIGINT AS stored_rowid
    FROM staged SEMI JOIN contested USING (h)
    UNION ALL
    SELECT seq, op, client_id, customer_id, transaction_id, v, stored_month, stored_rowid FROM stored SEMI JOIN contested USING (h)
), windowed AS (
    SELECT seq, op, client_id, customer_id, transaction_id, v,
           max(v) OVER earlier AS prior_v,
           arg_max(op, v) OVER earlier AS prior_op,
           max(v) OVER whole AS last_v,
           max(stored_month) OVER whole AS old_month,
           max(stored_rowid) OVER whole AS old_rowid,
           bool_or(seq < 0 AND op = 'delete') OVER whole AS tombstoned
    FROM versions k
    WINDOW earlier AS (PARTITION BY client_id, customer_id, transaction_id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING),
           whole AS (PARTITION BY client_id, customer_id, transaction_id)
)
SELECT seq, op, client_id, customer_id, transaction_id, prior_op,
       (prior_v IS NULL OR v > prior_v) AS applied,
       (v = last_v AND (prior_v IS NULL OR v > prior_v)) AS winner,
       old_month IS NOT NULL AS existed, tombstoned, old_month, old_rowid
FROM windowed
WHERE seq >= 0
UNION ALL
-- The rest, the common case: the only version of a transaction, new to the store, applies and wins.
SELECT seq, op, client_id, customer_id, transaction_id, NULL, true, true, false, false, NULL, NULL
FROM staged s ANTI JOIN contested c USING (h);

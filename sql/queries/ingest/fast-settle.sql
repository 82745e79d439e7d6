-- The fast path's rows that do not go in, judged as write-batch judges an
-- event: a secret that does not match its customer's (from the customer's
-- creation on: after_seq is -1 for a stored customer) makes a dead letter;
-- otherwise an event no newer than its customer's deletion changes nothing.
-- Each is then removed from stage_transactions. $client_ids, $customer_ids,
-- $secrets and $after_seqs are parallel lists: the secrets that do not match.
CREATE OR REPLACE TEMP TABLE fast_settled AS
WITH rules AS (
    SELECT unnest($client_ids::VARCHAR[]) AS client_id, unnest($customer_ids::VARCHAR[]) AS customer_id,
           unnest($secrets::VARCHAR[]) AS secret, unnest($after_seqs::INTEGER[]) AS after_seq
), judged AS (
    SELECT s.seq, s.op, s.client_id, s.customer_id,
           EXISTS (SELECT 1 FROM rules r WHERE r.client_id = s.client_id AND r.customer_id = s.customer_id
                   AND r.secret = s.customer_secret AND s.seq > r.after_seq) AS dead,
           t.occurred_at IS NOT NULL AND NOT (s.occurred_at::TIMESTAMP > t.occurred_at
               OR (s.occurred_at::TIMESTAMP = t.occurred_at AND s.event_id > t.event_id)) AS old
    FROM stage_transactions s
    LEFT JOIN tombstones t ON t.record_type = 'customer' AND t.client_id = s.client_id AND t.record_id = s.customer_id
    WHERE s.fast
)
SELECT seq, op, client_id, customer_id, dead FROM judged WHERE dead OR old;

DELETE FROM stage_transactions WHERE fast AND seq IN (SELECT seq FROM fast_settled);

SELECT seq, op, client_id, customer_id, dead FROM fast_settled;

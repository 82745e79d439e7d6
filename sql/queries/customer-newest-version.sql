-- When the newest record stored about a customer of one client happened
-- (its occurred_at): an operator's deletion must be newer than all of it,
-- or a record stamped ahead of the clock would outlive the deletion.
-- Parameters: $client_id, $customer_id.
SELECT max(v)::VARCHAR AS newest FROM (
    SELECT max(occurred_at) AS v FROM transactions WHERE client_id = $client_id AND customer_id = $customer_id
    UNION ALL
    SELECT max(occurred_at) FROM accounts WHERE client_id = $client_id AND customer_id = $customer_id
    UNION ALL
    SELECT max(occurred_at) FROM customer_applications WHERE client_id = $client_id AND customer_id = $customer_id
    UNION ALL
    SELECT max(occurred_at) FROM tombstones WHERE client_id = $client_id AND customer_id = $customer_id
);

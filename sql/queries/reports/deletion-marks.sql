-- Each given customer's deletion mark: the version of their latest deletion
-- (occurred_at and event id), NULL if they were never deleted. The nightly
-- job reads the marks of a slice in the snapshot it reads the slice's report
-- rows in, and reads them again in the transaction that stores the slice's
-- reports: a report whose customer's mark has changed meanwhile was built
-- from data a deletion has since removed, and is not stored.
-- $customers: JSON [{client_id, customer_id}]
WITH k AS (
    SELECT unnest(from_json($customers::JSON, '[{"client_id":"VARCHAR","customer_id":"VARCHAR"}]'), recursive := true)
)
SELECT k.client_id, k.customer_id, d.occurred_at::VARCHAR || ' ' || d.event_id AS mark
FROM k LEFT JOIN tombstones d ON d.record_type = 'customer' AND d.client_id = k.client_id AND d.record_id = k.customer_id;

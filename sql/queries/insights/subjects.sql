-- The customers of queries/insights/scope that exist, in order.
-- Parameters: none.
SELECT client_id, customer_id FROM insight_subjects ORDER BY client_id, customer_id;

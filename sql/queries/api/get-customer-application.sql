-- An application of any customer of the client; another client's answers nothing.
-- Parameters: $application_id, $client_id.
SELECT a.customer_id, a.application_id, a.body::VARCHAR AS body
FROM customer_applications a
JOIN customers c ON c.client_id = a.client_id AND c.customer_id = a.customer_id
WHERE a.application_id = $application_id
  AND a.client_id = $client_id
ORDER BY a.occurred_at DESC, a.event_id DESC
LIMIT 1;

-- A client is known when it can call the API or owns a customer.
-- Parameters: $client_id.
SELECT EXISTS (SELECT 1 FROM api_clients WHERE client_id = $client_id)
    OR EXISTS (SELECT 1 FROM customers WHERE client_id = $client_id) AS known;

-- The slices the nightly rebuild works through, in customer order: ranges of
-- customer ids (every client's customers with those ids), each holding some
-- $slice_transactions transactions (a customer with more is a slice of its
-- own). A slice runs from its from_customer up to, not including, its
-- to_customer; the first starts at '' (before any id) and the last has no
-- end, so that stored totals of a customer with no transaction left fall in
-- a slice too. A store with no transactions has no slice (the job then
-- takes one covering everything). Parameters: $slice_transactions.
WITH per_customer AS (
    SELECT customer_id, count(*) AS n FROM transactions GROUP BY customer_id
), running AS (
    SELECT customer_id, n, sum(n) OVER (ORDER BY customer_id ROWS UNBOUNDED PRECEDING) AS upto FROM per_customer
), slices AS (
    SELECT (upto - n) // $slice_transactions AS slice, min(customer_id) AS first_customer FROM running GROUP BY ALL
)
SELECT CASE WHEN slice = min(slice) OVER () THEN '' ELSE first_customer END AS from_customer,
       lead(first_customer) OVER (ORDER BY slice) AS to_customer
FROM slices
ORDER BY slice;

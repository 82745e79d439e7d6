-- The readiness probe: answers only if the database can serve a read.
SELECT 1 AS ok;

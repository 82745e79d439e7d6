-- How many dead letters there are, of one source or of all ($source NULL).
SELECT count(*)::INTEGER AS total
FROM dead_letters
WHERE $source IS NULL OR source = $source;

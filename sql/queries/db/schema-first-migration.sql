-- How many migrations a record holds, and whether afford's first (version
-- 1) is among them: a record of another program's migrations, in a table of
-- the same name and columns, is unlikely to have it.
SELECT count(*)::INTEGER AS applied,
       count(*) FILTER (WHERE version = 1)::INTEGER AS has_core
FROM schema_migrations;

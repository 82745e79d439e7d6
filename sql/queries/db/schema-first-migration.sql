-- How many migrations a record holds, and whether afford's first is among
-- them: a record of another program's migrations has not.
SELECT count(*)::INTEGER AS applied,
       count(*) FILTER (WHERE version = 1 AND name = 'core')::INTEGER AS has_core
FROM schema_migrations;

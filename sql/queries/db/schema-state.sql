-- What the store's file holds before migrations run: how many tables it has
-- besides afford's record of migrations, whether that record is there, and

SELECT count(*) FILTER (WHERE table_name <> 'schema_migrations')::INTEGER AS other_tables,
       count(*) FILTER (WHERE table_name = 'schema_migrations')::INTEGER AS has_migrations
FROM duckdb_tables()
WHERE database_name = current_database() AND NOT temporary;

-- What the store's file holds before migrations run: how many tables it has
-- besides a record of migrations, whether a table of that name is there,
-- and its columns as `name TYPE` in order (afford's own has version
-- INTEGER, name VARCHAR, applied_at TIMESTAMP; other programs use the same
-- table name with other columns).
SELECT (SELECT count(*) FROM duckdb_tables()
         WHERE database_name = current_database() AND NOT temporary AND table_name <> 'schema_migrations')::INTEGER AS other_tables,
       (SELECT count(*) FROM duckdb_tables()
         WHERE database_name = current_database() AND NOT temporary AND table_name = 'schema_migrations')::INTEGER AS has_migrations,
       coalesce((SELECT string_agg(column_name || ' ' || data_type, ', ' ORDER BY column_index) FROM duckdb_columns()
         WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'schema_migrations'), '') AS migration_columns;

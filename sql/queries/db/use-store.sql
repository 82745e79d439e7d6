-- Makes the store's database (see attach-store.sql) the default of another
-- connection to the same instance: each connection has its own.
USE afford;

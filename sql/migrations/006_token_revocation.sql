-- Every token names the generation of its client's secret it was issued
-- under; rotating the secret moves the generation on, so that every token
-- issued before (refresh tokens included) is refused from then on.
ALTER TABLE api_clients ADD COLUMN token_generation INTEGER DEFAULT 0;
UPDATE api_clients SET token_generation = 0 WHERE token_generation IS NULL;

-- Idempotency-Key records: claimed by inserting the row (the primary key makes two concurrent
-- requests with one key create one record), completed with the response to replay.
CREATE TABLE idempotency_keys (
  scope text NOT NULL,
  idempotency_key text NOT NULL,
  method text NOT NULL,
  path text NOT NULL,
  fingerprint text NOT NULL,
  state text NOT NULL DEFAULT 'running',
  status_code integer,
  response_body text,
  response_headers jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (scope, idempotency_key)
);
CREATE INDEX idempotency_keys_expires_idx ON idempotency_keys (expires_at);

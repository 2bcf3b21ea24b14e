-- Issue 25, item 1: storage belongs to one database, and only what this database recorded as pending
-- is ever swept.
--
-- database_identity: one row, a random id made when this migration runs. The server stamps its file
-- storage (DATA_DIR/files/.pps-storage.json, or the object .pps-storage.json in the S3 bucket) with it
-- and refuses to start against storage another database stamped.
CREATE TABLE database_identity (
  singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
  id uuid NOT NULL DEFAULT gen_random_uuid(),
  created_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO database_identity (singleton) VALUES (true);

-- storage_intents: an outbox of storage writes and deletes not yet settled. An upload records its key
-- (committed) before it stores a byte and removes the row in the statement that inserts the asset; an
-- image job records its asset's key before storing variants; an asset delete records the key in the
-- transaction that deletes the row and removes it once the object and its variants are gone. The
-- start-up sweep reads only this table: for an intent whose key no asset row names it removes the
-- object and its variants, then the intent. A file this database never recorded is never deleted.
CREATE TABLE storage_intents (
  id uuid PRIMARY KEY,
  storage_key text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX storage_intents_created_at_idx ON storage_intents (created_at);

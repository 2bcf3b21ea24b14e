-- Sync (issue 11): externalId unique per organization; change feeds of apartments and inquiries.

-- An empty string names nothing in another system; it is not an id and would collide with itself.
UPDATE apartments SET external_id = NULL WHERE external_id = '';
-- Compared exactly (no case folding, no trimming): the other system's key as it sent it. Creating the
-- index fails if an organization already repeats an external id; docs/decisions.md has the query that
-- finds them.
CREATE UNIQUE INDEX apartments_org_external_id_uq ON apartments (organization_id, external_id) WHERE external_id IS NOT NULL;

-- The change feed's order (docs/decisions.md, "Change feeds"): the id of the transaction that last
-- changed the row. A reader only takes rows whose transaction is below the oldest transaction still
-- running (pg_snapshot_xmin), so a transaction that commits late can never land behind a cursor.
-- xid8 (64 bits) never wraps around; pg_current_xact_id() exists since PostgreSQL 13.
-- (The body is one line: the migration runner splits statements at semicolons that end a line.)
CREATE FUNCTION stamp_change_xid() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN NEW.change_xid := pg_current_xact_id(); RETURN NEW; END
$$;

ALTER TABLE apartments ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
-- A change is a write that sets updated_at (every write path does); the sync stamp alone
-- (last_synchronized_at of an unchanged apartment) is not a change and does not fire it.
CREATE TRIGGER apartments_change_xid BEFORE UPDATE OF updated_at ON apartments
  FOR EACH ROW EXECUTE FUNCTION stamp_change_xid();
CREATE INDEX apartments_org_change_idx ON apartments (organization_id, change_xid, id);

ALTER TABLE inquiries ADD COLUMN change_xid xid8 NOT NULL DEFAULT pg_current_xact_id();
CREATE TRIGGER inquiries_change_xid BEFORE UPDATE OF updated_at ON inquiries
  FOR EACH ROW EXECUTE FUNCTION stamp_change_xid();
CREATE INDEX inquiries_org_change_idx ON inquiries (organization_id, change_xid, id);

-- Issue 37: an estate's page at its own hostname. One row per hostname in the whole service (the primary
-- key: a second organization adding a taken hostname is 409). status: pending (added, TXT record not yet
-- seen), verified (TXT record seen; the hostname is served and gets a certificate), unverified (was
-- verified; the record has been missing for the re-verification window). failing_since: the first failed
-- re-verification of a verified hostname in a row (null while it passes).
CREATE TABLE estate_domains (
  hostname text PRIMARY KEY CHECK (length(hostname) BETWEEN 1 AND 253 AND hostname = lower(hostname)),
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'verified', 'unverified')),
  txt_value text NOT NULL,
  verified_at timestamptz,
  checked_at timestamptz,
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX estate_domains_estate_idx ON estate_domains (organization_id, estate_id);
CREATE INDEX estate_domains_verified_idx ON estate_domains (checked_at) WHERE status = 'verified';

-- Instances keep the verified hostnames in memory (host routing, the TLS ask) and the pages that name
-- them as canonical: both hear of every change (pages_changed moves the page cache of the organization;
-- domains_changed reloads the hostnames).
CREATE TRIGGER estate_domains_pages_ins AFTER INSERT ON estate_domains REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estate_domains_pages_upd AFTER UPDATE ON estate_domains REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estate_domains_pages_del AFTER DELETE ON estate_domains REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estate_domains_changed_ins AFTER INSERT ON estate_domains REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('domains_changed');
CREATE TRIGGER estate_domains_changed_upd AFTER UPDATE ON estate_domains REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('domains_changed');
CREATE TRIGGER estate_domains_changed_del AFTER DELETE ON estate_domains REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('domains_changed');
-- An estate's slug is in the hostname table kept in memory (a host is routed to /p/{slug}).
CREATE TRIGGER estates_domains_changed_upd AFTER UPDATE ON estates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('domains_changed');

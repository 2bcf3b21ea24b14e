-- Issue 33: a change notification names the organizations the statement changed, so another instance
-- drops only what those organizations' kept answers hold (src/db/read-cache.ts), never every organization's.
-- Still one notification per statement and organization (PostgreSQL folds equal ones in a transaction),
-- read from the statement's transition tables (PG 10+); TRUNCATE has none and names everyone ('*').
-- Transition tables need one trigger per event; the channel is the trigger's argument. The tables, events
-- and channels are those of migrations 0010, 0014 and 0015 (inserts of apartments and buildings still
-- notify nothing: docs/decisions.md, Lists).
-- (The body stays on one line: the migration runner splits statements at a ';' that ends a line.)
CREATE FUNCTION notify_organizations_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN IF TG_OP = 'TRUNCATE' THEN PERFORM pg_notify(TG_ARGV[0], '*'); ELSIF TG_OP = 'INSERT' THEN PERFORM pg_notify(TG_ARGV[0], o::text) FROM (SELECT DISTINCT organization_id AS o FROM new_rows) AS s; ELSIF TG_OP = 'DELETE' THEN PERFORM pg_notify(TG_ARGV[0], o::text) FROM (SELECT DISTINCT organization_id AS o FROM old_rows) AS s; ELSE PERFORM pg_notify(TG_ARGV[0], o::text) FROM (SELECT organization_id AS o FROM old_rows UNION SELECT organization_id FROM new_rows) AS s; END IF; RETURN NULL; END
$$;

DROP TRIGGER apartments_documents_changed ON apartments;
DROP TRIGGER buildings_documents_changed ON buildings;
DROP FUNCTION notify_apartment_documents_changed();
DROP TRIGGER navigators_documents_changed ON navigators;
DROP TRIGGER navigator_frames_documents_changed ON navigator_frames;
DROP TRIGGER navigator_shapes_documents_changed ON navigator_shapes;
DROP TRIGGER navigator_pois_documents_changed ON navigator_pois;
DROP TRIGGER assets_navigator_documents_changed ON assets;
DROP FUNCTION notify_navigator_documents_changed();
DROP TRIGGER estate_pages_changed ON estate_pages;
DROP TRIGGER estates_pages_changed ON estates;
DROP FUNCTION notify_pages_changed();

-- apartment_documents_changed: apartments and buildings (UPDATE, DELETE, TRUNCATE).
CREATE TRIGGER apartments_changed_upd AFTER UPDATE ON apartments REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('apartment_documents_changed');
CREATE TRIGGER apartments_changed_del AFTER DELETE ON apartments REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('apartment_documents_changed');
CREATE TRIGGER apartments_changed_trunc AFTER TRUNCATE ON apartments
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('apartment_documents_changed');
CREATE TRIGGER buildings_changed_upd AFTER UPDATE ON buildings REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('apartment_documents_changed');
CREATE TRIGGER buildings_changed_del AFTER DELETE ON buildings REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('apartment_documents_changed');
CREATE TRIGGER buildings_changed_trunc AFTER TRUNCATE ON buildings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('apartment_documents_changed');

-- navigator_documents_changed: navigators, their frames, shapes and POIs (every change), assets (UPDATE, DELETE, TRUNCATE).
CREATE TRIGGER navigators_changed_ins AFTER INSERT ON navigators REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigators_changed_upd AFTER UPDATE ON navigators REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigators_changed_del AFTER DELETE ON navigators REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigators_changed_trunc AFTER TRUNCATE ON navigators
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_frames_changed_ins AFTER INSERT ON navigator_frames REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_frames_changed_upd AFTER UPDATE ON navigator_frames REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_frames_changed_del AFTER DELETE ON navigator_frames REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_frames_changed_trunc AFTER TRUNCATE ON navigator_frames
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_shapes_changed_ins AFTER INSERT ON navigator_shapes REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_shapes_changed_upd AFTER UPDATE ON navigator_shapes REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_shapes_changed_del AFTER DELETE ON navigator_shapes REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_shapes_changed_trunc AFTER TRUNCATE ON navigator_shapes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_pois_changed_ins AFTER INSERT ON navigator_pois REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_pois_changed_upd AFTER UPDATE ON navigator_pois REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_pois_changed_del AFTER DELETE ON navigator_pois REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER navigator_pois_changed_trunc AFTER TRUNCATE ON navigator_pois
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER assets_changed_upd AFTER UPDATE ON assets REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER assets_changed_del AFTER DELETE ON assets REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');
CREATE TRIGGER assets_changed_trunc AFTER TRUNCATE ON assets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('navigator_documents_changed');

-- pages_changed: the page settings (every change) and estates (UPDATE, DELETE, TRUNCATE).
CREATE TRIGGER estate_pages_changed_ins AFTER INSERT ON estate_pages REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estate_pages_changed_upd AFTER UPDATE ON estate_pages REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estate_pages_changed_del AFTER DELETE ON estate_pages REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estate_pages_changed_trunc AFTER TRUNCATE ON estate_pages
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estates_changed_upd AFTER UPDATE ON estates REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estates_changed_del AFTER DELETE ON estates REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');
CREATE TRIGGER estates_changed_trunc AFTER TRUNCATE ON estates
  FOR EACH STATEMENT EXECUTE FUNCTION notify_organizations_changed('pages_changed');

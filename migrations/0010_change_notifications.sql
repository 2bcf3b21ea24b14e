-- Issue 14: instances cache apartment documents (each with its building) and must hear of every change
-- made by any instance, by any code path, or by hand. One notification per statement (not per row):
-- a listener drops all its apartment documents, so a 5,000-row bulk update costs one message.
-- Inserts need none: a new apartment was never cached.
-- (The body stays on one line: the migration runner splits statements at a ';' that ends a line.)
CREATE FUNCTION notify_apartment_documents_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('apartment_documents_changed', TG_TABLE_NAME); RETURN NULL; END
$$;

CREATE TRIGGER apartments_documents_changed AFTER UPDATE OR DELETE OR TRUNCATE ON apartments
  FOR EACH STATEMENT EXECUTE FUNCTION notify_apartment_documents_changed();
CREATE TRIGGER buildings_documents_changed AFTER UPDATE OR DELETE OR TRUNCATE ON buildings
  FOR EACH STATEMENT EXECUTE FUNCTION notify_apartment_documents_changed();

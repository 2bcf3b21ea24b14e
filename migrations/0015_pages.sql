-- Issue 27: the public page. One row per estate once its page is configured (no row: off, defaults).
-- preview_secret signs the estate's preview links (HMAC-SHA256, src/modules/pages/preview.ts): it is
-- made with the row, lives in the database every instance shares, and never leaves the service.
-- version moves with every write of the row: the page settings' ETag and part of the page cache key.
CREATE TABLE estate_pages (
  estate_id uuid PRIMARY KEY REFERENCES estates (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  navigator_id uuid REFERENCES navigators (id) ON DELETE SET NULL,
  show_apartments boolean NOT NULL DEFAULT true,
  show_inquiry_form boolean NOT NULL DEFAULT true,
  embed_origins jsonb NOT NULL DEFAULT '[]',
  locale text NOT NULL DEFAULT 'en-US',
  preview_secret bytea NOT NULL,
  version integer NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX estate_pages_org_idx ON estate_pages (organization_id);

-- Instances keep rendered pages (src/modules/pages/service.ts) and must hear of every change to what
-- a page shows that the other channels do not report: its settings, and the estate itself (name,
-- description, slug). Apartments, buildings, navigators, assets and add-ons have their channels.
CREATE FUNCTION notify_pages_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('pages_changed', TG_TABLE_NAME); RETURN NULL; END
$$;

CREATE TRIGGER estate_pages_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON estate_pages
  FOR EACH STATEMENT EXECUTE FUNCTION notify_pages_changed();
CREATE TRIGGER estates_pages_changed AFTER UPDATE OR DELETE OR TRUNCATE ON estates
  FOR EACH STATEMENT EXECUTE FUNCTION notify_pages_changed();

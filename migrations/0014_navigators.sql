-- Issue 26: navigators you can edit. A navigator belongs to one estate; the estate's first one
-- (parent_id null, referenceType estate) cannot be deleted, a nested one (referenceType building)
-- hangs under a parent and goes with it. Frames ("images" in the API) are renders at an angle, each
-- showing one image asset; shapes are SVG path data on a frame pointing at an apartment or a building;
-- POIs are points on a frame. Children carry organization_id (tenancy in every query).
-- Asset references are deferred, as for the add-ons: asset deletion removes the frames that show the
-- asset and the asset row in one transaction, in either order.

ALTER TABLE navigators ADD COLUMN estate_id uuid REFERENCES estates (id) ON DELETE CASCADE;
ALTER TABLE navigators ADD COLUMN parent_id uuid REFERENCES navigators (id) ON DELETE CASCADE;
ALTER TABLE navigators ADD COLUMN updated_at timestamptz NOT NULL DEFAULT now();
-- Every navigator so far was made by quick setup: referenceType estate, referenceId the estate.
UPDATE navigators AS n SET estate_id = n.reference_id WHERE EXISTS (SELECT 1 FROM estates AS e WHERE e.id = n.reference_id);
DELETE FROM navigators WHERE estate_id IS NULL;
ALTER TABLE navigators ALTER COLUMN estate_id SET NOT NULL;
-- Frames live in navigator_frames now; the column was never written other than '[]'.
ALTER TABLE navigators DROP COLUMN images;
CREATE INDEX navigators_estate_idx ON navigators (organization_id, estate_id);
CREATE INDEX navigators_parent_idx ON navigators (parent_id);
-- One nested navigator per building under a parent.
CREATE UNIQUE INDEX navigators_parent_reference_uq ON navigators (parent_id, reference_id) WHERE parent_id IS NOT NULL;

CREATE TABLE navigator_frames (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  navigator_id uuid NOT NULL REFERENCES navigators (id) ON DELETE CASCADE,
  asset_id uuid NOT NULL REFERENCES assets (id) DEFERRABLE INITIALLY DEFERRED,
  angle double precision NOT NULL CHECK (angle >= 0 AND angle < 360),
  name text NOT NULL,
  is_marketing_stop boolean NOT NULL DEFAULT false,
  highlight_label text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT navigator_frames_angle_uq UNIQUE (navigator_id, angle)
);
CREATE INDEX navigator_frames_asset_idx ON navigator_frames (asset_id);
CREATE INDEX navigator_frames_org_idx ON navigator_frames (organization_id);

-- A shape points at exactly one apartment or building; deleting either deletes its shapes.
-- max_x/max_y: the largest coordinates of the path, so a smaller overlay can be refused in one query.
CREATE TABLE navigator_shapes (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  frame_id uuid NOT NULL REFERENCES navigator_frames (id) ON DELETE CASCADE,
  position integer NOT NULL,
  name text,
  description text,
  apartment_id uuid REFERENCES apartments (id) ON DELETE CASCADE,
  building_id uuid REFERENCES buildings (id) ON DELETE CASCADE,
  shape text NOT NULL,
  max_x double precision NOT NULL,
  max_y double precision NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT navigator_shapes_reference_ck CHECK (num_nonnulls(apartment_id, building_id) = 1)
);
CREATE INDEX navigator_shapes_frame_idx ON navigator_shapes (frame_id, position);
CREATE INDEX navigator_shapes_apartment_idx ON navigator_shapes (apartment_id) WHERE apartment_id IS NOT NULL;
CREATE INDEX navigator_shapes_building_idx ON navigator_shapes (building_id) WHERE building_id IS NOT NULL;

CREATE TABLE navigator_pois (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  frame_id uuid NOT NULL REFERENCES navigator_frames (id) ON DELETE CASCADE,
  position integer NOT NULL,
  x double precision NOT NULL,
  y double precision NOT NULL,
  type text NOT NULL,
  panorama_id uuid REFERENCES panoramas (id) ON DELETE SET NULL,
  starting_panorama_id uuid REFERENCES panoramas (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX navigator_pois_frame_idx ON navigator_pois (frame_id, position);

-- Instances cache navigator documents (src/db/read-cache.ts) and must hear of every change, made by
-- any instance, any code path or by hand: one notification per statement. Inserts count here (a new
-- frame changes a cached document); assets count for the embedded asset (variants, deletion).
-- (The body stays on one line: the migration runner splits statements at a ';' that ends a line.)
CREATE FUNCTION notify_navigator_documents_changed() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN PERFORM pg_notify('navigator_documents_changed', TG_TABLE_NAME); RETURN NULL; END
$$;

CREATE TRIGGER navigators_documents_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON navigators
  FOR EACH STATEMENT EXECUTE FUNCTION notify_navigator_documents_changed();
CREATE TRIGGER navigator_frames_documents_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON navigator_frames
  FOR EACH STATEMENT EXECUTE FUNCTION notify_navigator_documents_changed();
CREATE TRIGGER navigator_shapes_documents_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON navigator_shapes
  FOR EACH STATEMENT EXECUTE FUNCTION notify_navigator_documents_changed();
CREATE TRIGGER navigator_pois_documents_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON navigator_pois
  FOR EACH STATEMENT EXECUTE FUNCTION notify_navigator_documents_changed();
CREATE TRIGGER assets_navigator_documents_changed AFTER UPDATE OR DELETE OR TRUNCATE ON assets
  FOR EACH STATEMENT EXECUTE FUNCTION notify_navigator_documents_changed();

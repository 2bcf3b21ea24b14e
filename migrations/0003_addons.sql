-- The four public-page add-ons: investment, gallery, map, downloads.
-- Every child carries organization_id (tenancy in every query) and estate_id (the lock parent).
-- Positions are 0..n-1 per sibling set; the unique constraints are deferred so one transaction can
-- permute a set with a single UPDATE and is only checked at commit.
-- Asset references are deferred too: asset deletion may delete the asset row before or after it
-- detaches the add-on children, as long as both happen in the same transaction.

CREATE TABLE addon_states (
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  kind text NOT NULL CHECK (kind IN ('investment', 'gallery', 'map', 'downloads')),
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  enabled boolean NOT NULL DEFAULT false,
  -- Bumped by every write to the add-on; public reads key their cached documents and ETags on it.
  version bigint NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (estate_id, kind)
);

CREATE TABLE investment_sections (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text NOT NULL DEFAULT '',
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT investment_sections_position_uq UNIQUE (estate_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE investment_files (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  section_id uuid NOT NULL REFERENCES investment_sections (id) ON DELETE CASCADE,
  asset_id uuid NOT NULL REFERENCES assets (id) DEFERRABLE INITIALLY DEFERRED,
  label text NOT NULL,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT investment_files_position_uq UNIQUE (section_id, position) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX investment_files_asset_idx ON investment_files (asset_id);

CREATE TABLE gallery_sections (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  title text NOT NULL,
  description text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT gallery_sections_position_uq UNIQUE (estate_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE gallery_items (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  -- NULL means ungrouped; the service moves items to ungrouped before deleting their section.
  section_id uuid REFERENCES gallery_sections (id),
  asset_id uuid NOT NULL REFERENCES assets (id) DEFERRABLE INITIALLY DEFERRED,
  caption text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT gallery_items_position_uq UNIQUE NULLS NOT DISTINCT (estate_id, section_id, position) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX gallery_items_asset_idx ON gallery_items (asset_id);
CREATE INDEX gallery_items_section_idx ON gallery_items (section_id);

CREATE TABLE map_configs (
  estate_id uuid PRIMARY KEY REFERENCES estates (id) ON DELETE CASCADE,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  center_lat double precision,
  center_lng double precision,
  default_zoom integer NOT NULL DEFAULT 14,
  tile_style text NOT NULL DEFAULT 'VOYAGER',
  default_view_lat double precision,
  default_view_lng double precision,
  logo_asset_id uuid REFERENCES assets (id) DEFERRABLE INITIALLY DEFERRED,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX map_configs_logo_idx ON map_configs (logo_asset_id);

CREATE TABLE map_pois (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  category text NOT NULL,
  label text NOT NULL,
  lat double precision NOT NULL,
  lng double precision NOT NULL,
  custom_distance_label text,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT map_pois_position_uq UNIQUE (estate_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE downloads_groups (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  title text NOT NULL,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT downloads_groups_position_uq UNIQUE (estate_id, position) DEFERRABLE INITIALLY DEFERRED
);

CREATE TABLE downloads_items (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  group_id uuid NOT NULL REFERENCES downloads_groups (id) ON DELETE CASCADE,
  asset_id uuid NOT NULL REFERENCES assets (id) DEFERRABLE INITIALLY DEFERRED,
  label text NOT NULL,
  position integer NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT downloads_items_position_uq UNIQUE (group_id, position) DEFERRABLE INITIALLY DEFERRED
);
CREATE INDEX downloads_items_asset_idx ON downloads_items (asset_id);

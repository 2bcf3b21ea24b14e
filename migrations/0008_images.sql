-- Images: dimensions (after EXIF orientation), a blurred placeholder, whether the original carries a
-- GPS position, and the WebP variants. `image_state` is the durable job flag: 'pending' from the
-- insert that records an image until its variants are made (resumed at start-up after a crash),
-- then 'ready', or 'failed' when the library cannot read the file; null for anything not a raster image.
ALTER TABLE assets
  ADD COLUMN width integer,
  ADD COLUMN height integer,
  ADD COLUMN has_location boolean NOT NULL DEFAULT false,
  ADD COLUMN placeholder text,
  ADD COLUMN variants jsonb NOT NULL DEFAULT '[]',
  ADD COLUMN image_state text;

CREATE INDEX assets_image_pending_idx ON assets (created_at) WHERE image_state = 'pending';

-- usedBy and ?unused=true ask "which apartments list this asset": a containment lookup on assets_ids.
CREATE INDEX apartments_assets_ids_idx ON apartments USING gin (assets_ids jsonb_path_ops);

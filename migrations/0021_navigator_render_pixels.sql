-- Issue 36 (DECISIONS "Shape coordinates are the renders' pixels"): shapes and POIs are in the pixels
-- of the navigator's renders. A navigator's first frame sets sourceWidth/sourceHeight and
-- overlayWidth/overlayHeight to its image's size while nobody has set them; sizes_set says someone has
-- (a PATCH naming one of them, the first frame, or this migration), so a navigator set to 1920 x 1080
-- on purpose keeps it even though those are the defaults.
ALTER TABLE navigators ADD COLUMN sizes_set boolean NOT NULL DEFAULT false;
UPDATE navigators SET sizes_set = true
  WHERE coalesce((options ->> 'sourceWidth')::double precision, 1920) <> 1920
     OR coalesce((options ->> 'sourceHeight')::double precision, 1080) <> 1080
     OR coalesce((options ->> 'overlayWidth')::double precision, 1920) <> 1920
     OR coalesce((options ->> 'overlayHeight')::double precision, 1080) <> 1080;
-- Navigators that already have frames are rescaled to their first frame's pixels by this migration's
-- data step (src/db/data-steps.ts), in this same transaction: SVG path data (arcs included) cannot be
-- scaled in SQL with any confidence, so the step parses and rewrites each path as the service does.

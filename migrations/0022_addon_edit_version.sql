-- Issue 35 (docs/decisions.md "The assets and add-ons screens"): an add-on has two versions.
-- `version` moves with anything its public document shows, derived data included (an image's variants
-- arriving after its upload); public reads key their kept documents on it. `edit_version` moves only
-- when the add-on's own content is written (an API or dashboard write, an asset deleted from it): the
-- dashboard's forms carry it and are refused as stale (412) only when someone changed the add-on.
-- Existing rows start equal, so a form opened before this migration still matches.
ALTER TABLE addon_states ADD COLUMN edit_version bigint NOT NULL DEFAULT 1;
UPDATE addon_states SET edit_version = version;

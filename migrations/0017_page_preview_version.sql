-- Issue 38: preview links can be revoked. preview_version is signed into every preview link of the estate
-- (src/modules/pages/preview.ts); DELETE /api/v1/estates/{estateId}/page/previews moves it on, so every
-- link issued before no longer verifies. Links of version 1 are signed as before this column existed.
ALTER TABLE estate_pages ADD COLUMN preview_version integer NOT NULL DEFAULT 1;

-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- pages.estateRef
SELECT
  "id",
  "organization_id",
  "slug"
FROM
  "estates"
WHERE
  "id" = $1;

-- pages.get
SELECT
  *
FROM
  "estate_pages"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2;

-- pages.ofEstate
SELECT
  *
FROM
  "estate_pages"
WHERE
  "estate_id" = $1;

-- pages.revokePreviews
UPDATE "estate_pages"
SET
  "preview_version" = "preview_version" + $1
WHERE
  "organization_id" = $2
  AND "estate_id" = $3;

-- pages.upsert
INSERT INTO
  "estate_pages" (
    "organization_id",
    "estate_id",
    "preview_secret",
    "enabled",
    "navigator_id",
    "show_apartments",
    "show_inquiry_form",
    "embed_origins",
    "locale",
    "contact",
    "privacy_policy_url"
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    $6,
    $7,
    CAST($8 AS jsonb),
    $9,
    $10,
    $11
  )
ON CONFLICT ("estate_id") DO UPDATE
SET
  "enabled" = $12,
  "navigator_id" = $13,
  "show_apartments" = $14,
  "show_inquiry_form" = $15,
  "embed_origins" = CAST($16 AS jsonb),
  "locale" = $17,
  "contact" = $18,
  "privacy_policy_url" = $19,
  "version" = "estate_pages"."version" + $20,
  "updated_at" = $21
RETURNING
  *;

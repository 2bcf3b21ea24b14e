-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- panoramas.apartmentOwner
SELECT
  "organization_id"
FROM
  "apartments"
WHERE
  "id" = $1;

-- panoramas.insert
INSERT INTO
  "panoramas" (
    "id",
    "organization_id",
    "apartment_id",
    "name",
    "asset_id",
    "metadata",
    "comments",
    "portals",
    "pois"
  )
VALUES
  (
    $1,
    $2,
    $3,
    $4,
    $5,
    CAST($6 AS jsonb),
    CAST($7 AS jsonb),
    CAST($8 AS jsonb),
    CAST($9 AS jsonb)
  )
RETURNING
  *;

-- panoramas.listByApartment
SELECT
  *
FROM
  "panoramas"
WHERE
  "organization_id" = $1
  AND "apartment_id" = $2
ORDER BY
  "priority" DESC,
  "created_at",
  "id";

-- panoramas.listByIds
SELECT
  *
FROM
  "panoramas"
WHERE
  "organization_id" = $1
  AND "id" = ANY (CAST($2 AS UUID[]));

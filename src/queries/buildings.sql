-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- buildings.get
SELECT
  *
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- buildings.insert
INSERT INTO
  "buildings" (
    "id",
    "organization_id",
    "estate_id",
    "name",
    "description",
    "features",
    "source"
  )
VALUES
  ($1, $2, $3, $4, $5, CAST($6 AS jsonb), $7)
RETURNING
  *;

-- buildings.listByEstates
SELECT
  *
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "estate_id" = ANY (CAST($2 AS UUID[]))
ORDER BY
  "created_at",
  "id";

-- buildings.listByIds
SELECT
  *
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "id" = ANY (CAST($2 AS UUID[]));

-- buildings.lock
SELECT
  *
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "id" = $2
FOR UPDATE;

-- buildings.pageOfEstate
SELECT
  count(*) AS "n"
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2;

SELECT
  *
FROM
  "buildings"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
ORDER BY
  "created_at",
  "id"
LIMIT
  $3
OFFSET
  $4;

-- buildings.update
UPDATE "buildings"
SET
  "name" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

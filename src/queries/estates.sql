-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- estates.findBySlug
SELECT
  "id",
  "slug",
  "name"
FROM
  "estates"
WHERE
  lower(slug) = $1;

-- estates.get
SELECT
  *
FROM
  "estates"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- estates.insert
INSERT INTO
  "estates" (
    "id",
    "organization_id",
    "name",
    "slug",
    "description"
  )
VALUES
  ($1, $2, $3, $4, $5)
RETURNING
  *;

-- estates.list
SELECT
  count(*) AS "n"
FROM
  (
    SELECT
      "e".*
    FROM
      "estates" AS "e"
      INNER JOIN "buildings" AS "b" ON "b"."estate_id" = "e"."id"
    WHERE
      "e"."organization_id" = $1
      AND "b"."id" = $2
  ) AS "m";

SELECT
  "e".*
FROM
  "estates" AS "e"
  INNER JOIN "buildings" AS "b" ON "b"."estate_id" = "e"."id"
WHERE
  "e"."organization_id" = $1
  AND "b"."id" = $2
ORDER BY
  "e"."created_at" DESC,
  "e"."id" DESC
LIMIT
  $3
OFFSET
  $4;

-- estates.lock
SELECT
  *
FROM
  "estates"
WHERE
  "organization_id" = $1
  AND "id" = $2
FOR UPDATE;

-- estates.lockSlugBase
SELECT
  pg_advisory_xact_lock($1, hashtext ($2));

-- estates.slugsLike
SELECT
  lower(slug) AS "slug"
FROM
  "estates"
WHERE
  (
    lower(slug) = $1
    OR lower(slug) LIKE $2
  );

-- estates.update
UPDATE "estates"
SET
  "name" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

-- estates.updateAnyOrganization
SELECT
  *
FROM
  "estates"
WHERE
  "id" = $1;

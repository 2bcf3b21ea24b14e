-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- domains.count
SELECT
  count(*) AS "n"
FROM
  "estate_domains"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2;

-- domains.due
SELECT
  *
FROM
  "estate_domains"
WHERE
  "status" = $1
  AND (
    "checked_at" IS NULL
    OR "checked_at" < $2
  )
ORDER BY
  "checked_at"
LIMIT
  $3;

-- domains.get
SELECT
  *
FROM
  "estate_domains"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "hostname" = $3;

-- domains.insert
INSERT INTO
  "estate_domains" (
    "hostname",
    "estate_id",
    "organization_id",
    "txt_value"
  )
VALUES
  ($1, $2, $3, $4)
RETURNING
  *;

-- domains.list
SELECT
  *
FROM
  "estate_domains"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
ORDER BY
  "created_at",
  "hostname";

-- domains.remove
DELETE FROM "estate_domains"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "hostname" = $3
RETURNING
  "hostname";

-- domains.update
UPDATE "estate_domains"
SET
  "status" = $1,
  "checked_at" = $2,
  "failing_since" = $3
WHERE
  "organization_id" = $4
  AND "hostname" = $5
RETURNING
  *;

-- domains.verifiedHosts
SELECT
  "d"."hostname",
  "d"."estate_id",
  "d"."organization_id",
  "e"."slug",
  "d"."verified_at"
FROM
  "estate_domains" AS "d"
  INNER JOIN "estates" AS "e" ON "e"."id" = "d"."estate_id"
WHERE
  "d"."status" = $1;

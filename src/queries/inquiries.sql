-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- inquiries.apartmentsOfEstate
SELECT
  "id",
  "status"
FROM
  "apartments"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "id" = ANY (CAST($3 AS UUID[]));

-- inquiries.changes
SELECT
  *
FROM
  "inquiries"
WHERE
  "organization_id" = $1
  AND change_xid < pg_snapshot_xmin(pg_current_snapshot())
  AND (change_xid, id) > (CAST($2 AS xid8), CAST($3 AS uuid))
ORDER BY
  "change_xid",
  "id"
LIMIT
  $4;

-- inquiries.count
SELECT
  count(*) AS "n"
FROM
  "inquiries"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "status" = ANY (CAST($3 AS TEXT[]))
  AND (
    "name" ILIKE $4
    OR "email" ILIKE $5
  );

-- inquiries.estateOwner
SELECT
  "organization_id"
FROM
  "estates"
WHERE
  "id" = $1;

-- inquiries.get
SELECT
  *
FROM
  "inquiries"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- inquiries.insert
INSERT INTO
  "inquiries" (
    "id",
    "organization_id",
    "estate_id",
    "name",
    "email",
    "phone_number",
    "info",
    "apartment_ids",
    "referral_user_id"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7, $8, $9)
RETURNING
  *;

-- inquiries.list
SELECT
  *
FROM
  "inquiries"
WHERE
  "organization_id" = $1
  AND "estate_id" = $2
  AND "status" = ANY (CAST($3 AS TEXT[]))
  AND (
    "name" ILIKE $4
    OR "email" ILIKE $5
    OR regexp_replace(phone_number, '[^0-9]', '', 'g') LIKE $6
  )
ORDER BY
  created_at DESC,
  id DESC
LIMIT
  $7
OFFSET
  $8;

-- inquiries.setStatus
UPDATE "inquiries"
SET
  "status" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

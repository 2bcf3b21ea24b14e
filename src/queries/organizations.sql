-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- organizations.findActiveKeyByHash
SELECT
  "id",
  "organization_id",
  "name",
  "key_prefix",
  "scopes",
  "created_at",
  "expires_at",
  "revoked_at"
FROM
  "api_keys"
WHERE
  "key_hash" = $1
  AND "revoked_at" IS NULL
  AND (
    "expires_at" IS NULL
    OR "expires_at" > now()
  );

-- organizations.findKey
SELECT
  "id",
  "organization_id",
  "name",
  "key_prefix",
  "scopes",
  "created_at",
  "expires_at",
  "revoked_at"
FROM
  "api_keys"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- organizations.get
SELECT
  *
FROM
  "organizations"
WHERE
  "id" = $1;

-- organizations.insert
INSERT INTO
  "organizations" ("id", "name", "feature_flags")
VALUES
  ($1, $2, $3)
RETURNING
  *;

-- organizations.insertKey
INSERT INTO
  "api_keys" (
    "id",
    "organization_id",
    "name",
    "scopes",
    "expires_at",
    "key_hash",
    "key_prefix"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  "id",
  "organization_id",
  "name",
  "key_prefix",
  "scopes",
  "created_at",
  "expires_at",
  "revoked_at";

-- organizations.keyExists
SELECT
  "id"
FROM
  "api_keys"
WHERE
  "id" = $1;

-- organizations.list
SELECT
  *
FROM
  "organizations"
ORDER BY
  "created_at" DESC,
  "id" DESC
LIMIT
  $1
OFFSET
  $2;

-- organizations.listKeys
SELECT
  "id",
  "organization_id",
  "name",
  "key_prefix",
  "scopes",
  "created_at",
  "expires_at",
  "revoked_at",
  "last_used_at"
FROM
  "api_keys"
WHERE
  "organization_id" = $1
ORDER BY
  "created_at" DESC,
  "id" DESC;

-- organizations.lockUsableWriteKeys
SELECT
  "id"
FROM
  "api_keys"
WHERE
  "organization_id" = $1
  AND "revoked_at" IS NULL
  AND (
    "expires_at" IS NULL
    OR "expires_at" > now()
  )
  AND 'write' = ANY (scopes)
FOR UPDATE;

-- organizations.recordKeyUse
UPDATE "api_keys"
SET
  "last_used_at" = now()
WHERE
  "id" = $1
  AND (
    "last_used_at" IS NULL
    OR "last_used_at" < now() - make_interval(secs => $2)
  );

-- organizations.revokeKey
WITH
  "revoked" AS (
    UPDATE "api_keys"
    SET
      "revoked_at" = now()
    WHERE
      "id" = $1
      AND "revoked_at" IS NULL
    RETURNING
      "id"
  )
SELECT
  pg_notify ($2, cast("revoked"."id" AS text)) AS "notified"
FROM
  "revoked";

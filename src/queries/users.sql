-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- users.insert
INSERT INTO
  "users" ("id", "email", "name", "role")
VALUES
  ($1, $2, $3, $4)
RETURNING
  "id",
  "email",
  "first_name",
  "last_name",
  "avatar_url",
  "job_title",
  "description",
  "role",
  "is_registered",
  "created_at";

-- users.isMember
SELECT
  "id"
FROM
  "organization_memberships"
WHERE
  "organization_id" = $1
  AND "user_id" = $2;

-- users.listMembers
SELECT
  "u"."id",
  "u"."email",
  "u"."first_name",
  "u"."last_name",
  "u"."avatar_url",
  "u"."job_title",
  "u"."description",
  "u"."role",
  "u"."is_registered",
  "u"."created_at"
FROM
  "users" AS "u"
WHERE
  "u"."id" = ANY (CAST($1 AS UUID[]))
  AND EXISTS (
    SELECT
      "m"."id"
    FROM
      "organization_memberships" AS "m"
    WHERE
      "m"."organization_id" = $2
      AND "m"."user_id" = "u"."id"
  );

-- users.listMemberships
SELECT
  "m"."id",
  "m"."user_id",
  "m"."organization_id",
  json_build_object(
    'id',
    "o"."id",
    'name',
    "o"."name",
    'featureFlags',
    "o"."feature_flags"
  ) AS "organization",
  "m"."role",
  "m"."created_at"
FROM
  "organization_memberships" AS "m"
  INNER JOIN "organizations" AS "o" ON "o"."id" = "m"."organization_id"
WHERE
  "m"."organization_id" = $1
  AND "m"."user_id" = ANY (CAST($2 AS UUID[]))
ORDER BY
  "m"."created_at",
  "m"."id";

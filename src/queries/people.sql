-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- people.acceptInvitation
UPDATE "dashboard_invitations"
SET
  "accepted_at" = now()
WHERE
  "id" = $1
  AND "accepted_at" IS NULL
RETURNING
  "id";

-- people.countFailures
SELECT
  "subject",
  count(*) AS "count"
FROM
  "dashboard_sign_in_failures"
WHERE
  "subject" IN ($1, $2)
  AND "created_at" > now() - make_interval(secs => $3)
GROUP BY
  "subject";

-- people.deleteSession
DELETE FROM "dashboard_sessions"
WHERE
  "id" = $1;

-- people.deleteSessionsOf
DELETE FROM "dashboard_sessions"
WHERE
  "user_id" = $1;

-- people.findOpenInvitation
SELECT
  "i"."id",
  "i"."organization_id",
  "o"."name" AS "organization_name",
  "i"."email",
  "i"."role"
FROM
  "dashboard_invitations" AS "i"
  INNER JOIN "organizations" AS "o" ON "o"."id" = "i"."organization_id"
WHERE
  "i"."token_hash" = $1
  AND "i"."accepted_at" IS NULL
  AND "i"."revoked_at" IS NULL
  AND "i"."expires_at" > now();

-- people.findSession
SELECT
  "s"."id",
  "s"."user_id",
  "s"."last_seen_at",
  "u"."email",
  "u"."first_name",
  "u"."last_name"
FROM
  "dashboard_sessions" AS "s"
  INNER JOIN "users" AS "u" ON "u"."id" = "s"."user_id"
WHERE
  "s"."token_hash" = $1
  AND "s"."expires_at" > now()
  AND "s"."last_seen_at" > now() - make_interval(secs => $2);

-- people.findUserByEmail
SELECT
  "id",
  "email",
  "first_name",
  "last_name",
  "password_hash"
FROM
  "users"
WHERE
  lower(btrim(email)) = $1;

-- people.getUser
SELECT
  "id",
  "email",
  "first_name",
  "last_name",
  "password_hash"
FROM
  "users"
WHERE
  "id" = $1;

-- people.insertInvitation
INSERT INTO
  "dashboard_invitations" (
    "id",
    "organization_id",
    "email",
    "role",
    "token_hash",
    "invited_by",
    "expires_at"
  )
VALUES
  ($1, $2, $3, $4, $5, $6, $7)
RETURNING
  "id",
  "expires_at";

-- people.insertSession
INSERT INTO
  "dashboard_sessions" ("id", "user_id", "token_hash", "expires_at")
VALUES
  ($1, $2, $3, $4);

-- people.insertUser
INSERT INTO
  "users" (
    "id",
    "email",
    "first_name",
    "last_name",
    "password_hash",
    "is_registered"
  )
VALUES
  ($1, $2, $3, $4, $5, $6);

-- people.listMembers
SELECT
  "m"."id",
  "m"."user_id",
  "m"."dashboard_role" AS "role",
  "m"."created_at",
  "u"."email",
  "u"."first_name",
  "u"."last_name"
FROM
  "organization_memberships" AS "m"
  INNER JOIN "users" AS "u" ON "u"."id" = "m"."user_id"
WHERE
  "m"."organization_id" = $1
ORDER BY
  "u"."email";

-- people.listOpenInvitations
SELECT
  "id",
  "email",
  "role",
  "created_at",
  "expires_at"
FROM
  "dashboard_invitations"
WHERE
  "organization_id" = $1
  AND "accepted_at" IS NULL
  AND "revoked_at" IS NULL
  AND "expires_at" > now()
ORDER BY
  "created_at" DESC;

-- people.lockAdmins
SELECT
  "id"
FROM
  "organization_memberships"
WHERE
  "organization_id" = $1
  AND "dashboard_role" = $2
FOR UPDATE;

-- people.lockMember
SELECT
  "id",
  "user_id",
  "dashboard_role" AS "role"
FROM
  "organization_memberships"
WHERE
  "organization_id" = $1
  AND "id" = $2
FOR UPDATE;

-- people.membershipsOf
SELECT
  "m"."organization_id",
  "o"."name" AS "organization_name",
  "m"."dashboard_role" AS "role"
FROM
  "organization_memberships" AS "m"
  INNER JOIN "organizations" AS "o" ON "o"."id" = "m"."organization_id"
WHERE
  "m"."user_id" = $1
ORDER BY
  "o"."name",
  "o"."id";

-- people.pruneFailures
DELETE FROM "dashboard_sign_in_failures"
WHERE
  "created_at" < now() - make_interval(secs => $1);

-- people.recordFailure
INSERT INTO
  "dashboard_sign_in_failures" ("subject")
VALUES
  ($1),
  ($2);

-- people.removeMember
DELETE FROM "organization_memberships"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- people.revokeInvitation
UPDATE "dashboard_invitations"
SET
  "revoked_at" = now()
WHERE
  "organization_id" = $1
  AND "id" = $2
  AND "accepted_at" IS NULL
  AND "revoked_at" IS NULL
RETURNING
  "id";

-- people.setAccount
UPDATE "users"
SET
  "first_name" = $1,
  "last_name" = $2,
  "password_hash" = $3,
  "is_registered" = $4
WHERE
  "id" = $5;

-- people.setRole
UPDATE "organization_memberships"
SET
  "dashboard_role" = $1,
  "role" = $2
WHERE
  "organization_id" = $3
  AND "id" = $4;

-- people.touchSession
UPDATE "dashboard_sessions"
SET
  "last_seen_at" = now()
WHERE
  "id" = $1;

-- people.upsertMember
INSERT INTO
  "organization_memberships" (
    "id",
    "organization_id",
    "user_id",
    "dashboard_role",
    "role"
  )
VALUES
  ($1, $2, $3, $4, $5)
ON CONFLICT ("organization_id", "user_id") DO UPDATE
SET
  "dashboard_role" = $6,
  "role" = $7;

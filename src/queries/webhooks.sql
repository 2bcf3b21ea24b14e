-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- webhooks.claim
/* cache-neutral */
UPDATE webhook_deliveries d
SET
  lease_until = now() + make_interval(secs => $3),
  leased_by = $1
FROM
  webhook_events e,
  webhook_endpoints ep
WHERE
  d.id IN (
    SELECT
      x.id
    FROM
      webhook_deliveries x
      JOIN webhook_endpoints xe ON xe.id = x.endpoint_id
      AND xe.enabled
    WHERE
      x.status = 'pending'
      AND x.due_at <= now()
      AND (
        x.lease_until IS NULL
        OR x.lease_until < now()
      )
    ORDER BY
      x.due_at
    LIMIT
      $2
    FOR UPDATE OF
      x SKIP LOCKED
  )
  AND e.id = d.event_id
  AND ep.id = d.endpoint_id
RETURNING
  d.id,
  d.organization_id,
  d.endpoint_id,
  d.event_id,
  d.attempt,
  e.body,
  ep.url,
  ep.secret,
  ARRAY(
    SELECT
      r.secret
    FROM
      webhook_retired_secrets r
    WHERE
      r.organization_id = ep.organization_id
      AND r.endpoint_id = ep.id
      AND r.expires_at > now()
    ORDER BY
      r.expires_at DESC
  ) AS retired_secrets,
  ep.failing_since;

-- webhooks.countLocked
SELECT
  "id"
FROM
  "organizations"
WHERE
  "id" = $1
FOR UPDATE;

SELECT
  count(*) AS "n"
FROM
  "webhook_endpoints"
WHERE
  "organization_id" = $1;

-- webhooks.countRetiredSecrets
DELETE FROM "webhook_retired_secrets"
WHERE
  "organization_id" = $1
  AND "endpoint_id" = $2
  AND "expires_at" <= now();

SELECT
  count(*) AS "n"
FROM
  "webhook_retired_secrets"
WHERE
  "organization_id" = $1
  AND "endpoint_id" = $2;

-- webhooks.delete
DELETE FROM "webhook_endpoints"
WHERE
  "organization_id" = $1
  AND "id" = $2
RETURNING
  "id";

-- webhooks.deliveries
SELECT
  "d".*,
  "e"."type" AS "event_type"
FROM
  "webhook_deliveries" AS "d"
  INNER JOIN "webhook_events" AS "e" ON "e"."id" = "d"."event_id"
WHERE
  "d"."organization_id" = $1
  AND "d"."endpoint_id" = $2
  AND (d.created_at, d.id) < ($3::timestamptz, $4::uuid)
ORDER BY
  "d"."created_at" DESC,
  "d"."id" DESC
LIMIT
  $5;

-- webhooks.disable
UPDATE "webhook_endpoints"
SET
  "enabled" = $1,
  "disabled_reason" = $2,
  "updated_at" = now()
WHERE
  "organization_id" = $3
  AND "id" = $4
  AND "enabled" = $5;

-- webhooks.finish
UPDATE "webhook_deliveries"
SET
  "status" = $1,
  "response_status" = $2,
  "error" = $3,
  "duration_ms" = $4,
  "lease_until" = $5
WHERE
  "organization_id" = $6
  AND "id" = $7
  AND "leased_by" = $8
  AND "status" = $9
RETURNING
  "id";

-- webhooks.finishSucceeded
UPDATE webhook_deliveries d
SET
  status = 'succeeded',
  response_status = v.response_status,
  duration_ms = v.duration_ms,
  error = NULL,
  lease_until = NULL
FROM
  json_to_recordset($2::json) AS v (
    id uuid,
    organization_id uuid,
    response_status integer,
    duration_ms integer
  )
WHERE
  d.id = v.id
  AND d.organization_id = v.organization_id
  AND d.leased_by = $1
  AND d.status = 'pending';

-- webhooks.firstRetiredExpiry
SELECT
  min("expires_at") AS "at"
FROM
  "webhook_retired_secrets"
WHERE
  "organization_id" = $1
  AND "endpoint_id" = $2;

-- webhooks.get
SELECT
  *
FROM
  "webhook_endpoints"
WHERE
  "organization_id" = $1
  AND "id" = $2;

-- webhooks.getDelivery
SELECT
  "d".*,
  "e"."type" AS "event_type"
FROM
  "webhook_deliveries" AS "d"
  INNER JOIN "webhook_events" AS "e" ON "e"."id" = "d"."event_id"
WHERE
  "d"."organization_id" = $1
  AND "d"."endpoint_id" = $2
  AND "d"."id" = $3;

-- webhooks.insert
INSERT INTO
  "webhook_endpoints" (
    "id",
    "organization_id",
    "url",
    "events",
    "secret",
    "enabled"
  )
VALUES
  ($1, $2, $3, $4, $5, $6)
RETURNING
  *;

-- webhooks.list
SELECT
  *
FROM
  "webhook_endpoints"
WHERE
  "organization_id" = $1
ORDER BY
  "created_at",
  "id";

-- webhooks.markFailing
UPDATE "webhook_endpoints"
SET
  "failing_since" = coalesce(failing_since, now())
WHERE
  "organization_id" = $1
  AND "id" = $2
RETURNING
  failing_since AS "failing_since";

-- webhooks.markHealthy
UPDATE "webhook_endpoints"
SET
  "failing_since" = $1
WHERE
  "organization_id" = $2
  AND "id" = $3
  AND "failing_since" IS NOT NULL;

-- webhooks.nextDue
SELECT
  d.due_at
FROM
  webhook_deliveries d
  JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
  AND ep.enabled
WHERE
  d.status = 'pending'
  AND d.lease_until IS NULL
ORDER BY
  d.due_at
LIMIT
  1;

-- webhooks.queueAttempt
INSERT INTO
  "webhook_deliveries" (
    "id",
    "organization_id",
    "endpoint_id",
    "event_id",
    "attempt",
    "due_at"
  )
SELECT
  $1 AS "id",
  $2 AS "organization_id",
  $3 AS "endpoint_id",
  $4 AS "event_id",
  coalesce(max(attempt), 0) + 1 AS "attempt",
  now() + make_interval(secs => $5) AS "due_at"
FROM
  "webhook_deliveries"
WHERE
  "organization_id" = $6
  AND "endpoint_id" = $7
  AND "event_id" = $8
RETURNING
  *;

-- webhooks.queueStats
SELECT
  count(*) FILTER (
    WHERE
      ep.enabled
      AND d.due_at <= now()
  )::text AS due,
  count(*) FILTER (
    WHERE
      ep.enabled
      AND d.due_at > now()
  )::text AS scheduled,
  count(*) FILTER (
    WHERE
      NOT ep.enabled
  )::text AS held,
  extract(
    epoch
    FROM
      now() - min(d.due_at) FILTER (
        WHERE
          ep.enabled
          AND d.due_at <= now()
      )
  )::text AS oldest
FROM
  webhook_deliveries d
  JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
WHERE
  d.status = 'pending';

-- webhooks.releaseAllLeases
UPDATE "webhook_deliveries"
SET
  "lease_until" = $1,
  "leased_by" = $2
WHERE
  "status" = $3
  AND "leased_by" IS NOT NULL;

-- webhooks.retireSecret
INSERT INTO
  "webhook_retired_secrets" (
    "organization_id",
    "endpoint_id",
    "secret",
    "expires_at"
  )
VALUES
  ($1, $2, $3, now() + make_interval(hours => $4));

-- webhooks.update
UPDATE "webhook_endpoints"
SET
  "enabled" = $1,
  "updated_at" = now()
WHERE
  "organization_id" = $2
  AND "id" = $3
RETURNING
  *;

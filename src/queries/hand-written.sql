-- NOTE: This file is written by `npm run sql` from the code; do not edit it.

-- src/db/bound-work.ts

-- transaction
SAVEPOINT ${name};

-- transaction
RELEASE SAVEPOINT ${name};

-- transaction
ROLLBACK TO SAVEPOINT ${name};

-- src/db/change-listener.ts

-- connect
LISTEN ${channel};

-- connect
SELECT pg_notify($1, $2);

-- src/db/client.ts

-- withoutSeqScans
BEGIN READ ONLY; SET LOCAL enable_seqscan = off;

-- withoutSeqScans
COMMIT;

-- withoutSeqScans
ROLLBACK;

-- begin
BEGIN;

-- transaction
BEGIN;

-- transaction
COMMIT;

-- rolledBack
ROLLBACK;

-- src/db/migrate.ts

-- locked
SELECT pg_advisory_xact_lock($1);

-- migrate
CREATE TABLE IF NOT EXISTS schema_migrations (
  version text PRIMARY KEY,
  checksum text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
  );

-- rows
SELECT version, checksum FROM schema_migrations;

-- next
INSERT INTO schema_migrations (version, checksum) VALUES ($1, $2);

-- src/db/pglite-prepared.ts

-- queryText
SET enable_seqscan = off;

-- queryText
RESET enable_seqscan;

-- src/http/idempotency.ts

-- [lock]
SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS locked;

-- [own]
SELECT pg_backend_pid() AS pid;

-- fault
SELECT pg_terminate_backend($1);

-- src/modules/health/routes.ts

-- [database, storage]
SELECT 1;

-- src/modules/navigators/repository.ts

-- replaceShapes
INSERT INTO navigator_shapes (id, organization_id, frame_id, position, name, description, apartment_id, building_id, shape, max_x, max_y)
  SELECT s.id, $1, $2, s.position, s.name, s.description, s.apartment_id, s.building_id, s.shape, s.max_x, s.max_y
  FROM json_to_recordset($3::json) AS s (id uuid, position integer, name text, description text, apartment_id uuid, building_id uuid,
  shape text, max_x double precision, max_y double precision);

-- replacePois
INSERT INTO navigator_pois (id, organization_id, frame_id, position, x, y, type, panorama_id, starting_panorama_id)
  SELECT p.id, $1, $2, p.position, p.x, p.y, p.type, p.panorama_id, p.starting_panorama_id
  FROM json_to_recordset($3::json) AS p (id uuid, position integer, x double precision, y double precision, type text,
  panorama_id uuid, starting_panorama_id uuid);

-- src/modules/navigators/rescale-step.ts

-- navigators
SELECT DISTINCT ON (f.navigator_id) n.id, n.options, a.width, a.height
  FROM navigator_frames AS f
  JOIN navigators AS n ON n.id = f.navigator_id
  JOIN assets AS a ON a.id = f.asset_id
  ORDER BY f.navigator_id, f.created_at, f.id;

-- rescaleNavigatorsToRenderPixels
UPDATE navigators SET sizes_set = true, updated_at = now(),
  options = coalesce(options, '{}'::jsonb) || jsonb_build_object('sourceWidth', $2::int, 'sourceHeight', $3::int, 'overlayWidth', $2::int, 'overlayHeight', $3::int)
  WHERE id = $1;

-- shapes
SELECT s.id, s.shape FROM navigator_shapes AS s JOIN navigator_frames AS f ON f.id = s.frame_id WHERE f.navigator_id = $1 ORDER BY s.id;

-- rescale
UPDATE navigator_shapes AS s SET shape = v.shape, max_x = v.max_x, max_y = v.max_y
  FROM json_to_recordset($1::json) AS v (id uuid, shape text, max_x double precision, max_y double precision)
  WHERE s.id = v.id;

-- rescale
UPDATE navigator_pois AS p
  SET x = least(round((p.x * $2)::numeric, 3)::double precision, $4),
  y = least(round((p.y * $3)::numeric, 3)::double precision, $5)
  FROM navigator_frames AS f
  WHERE f.id = p.frame_id AND f.navigator_id = $1;

-- src/modules/webhooks/events.ts

-- wakeWorkers
SELECT pg_notify('${OUTBOX_CHANNEL}', '');

-- endpoints
SELECT id, events FROM webhook_endpoints WHERE organization_id = $1 AND enabled;

-- src/modules/webhooks/repository.ts

-- [row]
SELECT count(*) FILTER (WHERE ep.enabled AND d.due_at <= now())::text AS due,
  count(*) FILTER (WHERE ep.enabled AND d.due_at > now())::text AS scheduled,
  count(*) FILTER (WHERE NOT ep.enabled)::text AS held,
  extract(epoch FROM now() - min(d.due_at) FILTER (WHERE ep.enabled AND d.due_at <= now()))::text AS oldest
  FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id
  WHERE d.status = 'pending';

-- [row]
SELECT d.due_at FROM webhook_deliveries d JOIN webhook_endpoints ep ON ep.id = d.endpoint_id AND ep.enabled
  WHERE d.status = 'pending' AND d.lease_until IS NULL ORDER BY d.due_at LIMIT 1;

-- finishSucceeded
UPDATE webhook_deliveries d
  SET status = 'succeeded', response_status = v.response_status, duration_ms = v.duration_ms, error = NULL, lease_until = NULL
  FROM json_to_recordset($2::json) AS v (id uuid, organization_id uuid, response_status integer, duration_ms integer)
  WHERE d.id = v.id AND d.organization_id = v.organization_id AND d.leased_by = $1 AND d.status = 'pending';

-- src/modules/webhooks/worker.ts

-- listen
LISTEN ${OUTBOX_CHANNEL};

-- src/storage/stamp.ts

-- [row]
SELECT id FROM database_identity;

-- rows
SELECT storage_key FROM assets ORDER BY created_at DESC LIMIT $1;

-- Webhooks: endpoints of an organization, the transactional outbox of events, and delivery attempts.

-- secret and previous_secret are stored sealed (src/modules/webhooks/secrets.ts): they must be
-- recoverable to sign, unlike API keys. The previous secret keeps signing until previous_secret_expires_at.
CREATE TABLE webhook_endpoints (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  url text NOT NULL,
  events text[] NOT NULL,
  description text,
  enabled boolean NOT NULL DEFAULT true,
  disabled_reason text,
  secret text NOT NULL,
  previous_secret text,
  previous_secret_expires_at timestamptz,
  -- Set by the first failed attempt after a success (or since creation); cleared by a success.
  failing_since timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_endpoints_org_idx ON webhook_endpoints (organization_id, created_at);

-- The outbox: one row per event, written in the transaction of the change it reports. body is the
-- exact JSON sent (and signed) on every attempt.
CREATE TABLE webhook_events (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  type text NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_events_created_idx ON webhook_events (created_at);

-- One row per attempt of one event to one endpoint. A pending row is the queue: the worker claims it
-- when due_at has come and no live lease holds it, sends it, and records the outcome on the same row
-- (and a new pending row for the next attempt when it failed).
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id uuid NOT NULL REFERENCES webhook_events (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'succeeded', 'failed')),
  due_at timestamptz NOT NULL DEFAULT now(),
  lease_until timestamptz,
  leased_by uuid,
  response_status integer,
  error text,
  duration_ms integer,
  -- Milliseconds, as the API shows them: the delivery log's cursor carries this value exactly.
  created_at timestamptz NOT NULL DEFAULT date_trunc('milliseconds', now())
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (due_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at DESC, id DESC);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

-- Issue 25: every rotated-out webhook secret keeps signing until its own 24 hours end (a second
-- rotation no longer drops the first one early). One row per rotated-out secret, stored sealed as
-- webhook_endpoints.secret is. previous_secret and previous_secret_expires_at stay and are still
-- written by each rotation, so an instance of the previous release keeps signing during a rolling
-- upgrade; this release signs with the current secret and every unexpired row here.
CREATE TABLE webhook_retired_secrets (
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  endpoint_id uuid NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  secret text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (endpoint_id, expires_at, secret)
);

INSERT INTO webhook_retired_secrets (organization_id, endpoint_id, secret, expires_at)
SELECT organization_id, id, previous_secret, previous_secret_expires_at
FROM webhook_endpoints
WHERE previous_secret IS NOT NULL AND previous_secret_expires_at > now();

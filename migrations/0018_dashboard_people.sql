-- The dashboard's people (issue 35): passwords, roles in an organization, invitations, sessions and
-- the sign-in failures that rate-limit guessing. Every secret (password, invitation token, session id)
-- is stored only as a hash.

-- Argon2id PHC string; null while the user has no account (made by the operator API, not yet invited).
ALTER TABLE users ADD COLUMN password_hash text;

-- The dashboard role in this organization. `role` (admin | member) stays the spec's field and follows it:
-- admin for admin, member for editor and viewer.
ALTER TABLE organization_memberships ADD COLUMN dashboard_role text NOT NULL DEFAULT 'viewer'
  CHECK (dashboard_role IN ('admin', 'editor', 'viewer'));
UPDATE organization_memberships SET dashboard_role = 'admin' WHERE role = 'admin';

CREATE TABLE dashboard_invitations (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('admin', 'editor', 'viewer')),
  -- SHA-256 of the link's token (hex).
  token_hash text NOT NULL,
  invited_by uuid REFERENCES users (id) ON DELETE SET NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX dashboard_invitations_token_uq ON dashboard_invitations (token_hash);
CREATE INDEX dashboard_invitations_org_idx ON dashboard_invitations (organization_id, created_at DESC);

CREATE TABLE dashboard_sessions (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- SHA-256 of the cookie's 256-bit value (hex).
  token_hash text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_seen_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX dashboard_sessions_token_uq ON dashboard_sessions (token_hash);
CREATE INDEX dashboard_sessions_user_idx ON dashboard_sessions (user_id);

-- One row per failed sign-in, by subject (`account:<email>` and `ip:<address>`); counted over a window.
CREATE TABLE dashboard_sign_in_failures (
  subject text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX dashboard_sign_in_failures_idx ON dashboard_sign_in_failures (subject, created_at);

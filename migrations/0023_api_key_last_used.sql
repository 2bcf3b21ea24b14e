-- Issue 35 (docs/decisions.md "API keys: when each was last used"): the API keys screen says when each
-- key was last used. Written at most once a minute per key (src/modules/organizations/key-use.ts), off
-- the request's path; NULL: not used since this column exists.
ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz;

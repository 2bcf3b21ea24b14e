-- Issue 17: keys an organization manages. A key may expire (401 from then on); the scope
-- `publishable` joins read and write (stored in the existing scopes array, nothing to change there).
ALTER TABLE api_keys ADD COLUMN expires_at timestamptz;

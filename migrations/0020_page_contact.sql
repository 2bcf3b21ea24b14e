-- Issue 34: the page's contact block and the privacy policy the inquiry form links to (DECISIONS
-- "the viewer buyers know": page settings gain contact {name, phone, email, address, openingHours}
-- and privacyPolicyUrl). Both optional; the page shows what is set.
ALTER TABLE estate_pages ADD COLUMN contact jsonb;
ALTER TABLE estate_pages ADD COLUMN privacy_policy_url text;

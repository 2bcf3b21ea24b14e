-- Users (organization members shown as an inquiry's referralUser), inquiries and panoramas.

-- A user is one person identified by one e-mail address across the service; organization_memberships
-- lets the same person belong to several organizations with a role in each.
CREATE TABLE users (
  id uuid PRIMARY KEY,
  email text NOT NULL,
  first_name text,
  last_name text,
  avatar_url text,
  job_title text,
  description text,
  role text NOT NULL DEFAULT 'member',
  is_registered boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email_uq ON users (lower(btrim(email)));

CREATE TABLE organization_memberships (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role text NOT NULL DEFAULT 'member',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX organization_memberships_org_user_uq ON organization_memberships (organization_id, user_id);
CREATE INDEX organization_memberships_user_idx ON organization_memberships (user_id);

CREATE TABLE inquiries (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  estate_id uuid NOT NULL REFERENCES estates (id) ON DELETE CASCADE,
  name text NOT NULL,
  email text NOT NULL,
  phone_number text,
  info text,
  apartment_ids uuid[] NOT NULL DEFAULT '{}',
  referral_user_id uuid REFERENCES users (id) ON DELETE SET NULL,
  status text NOT NULL DEFAULT 'NEW',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX inquiries_org_created_idx ON inquiries (organization_id, created_at DESC, id DESC);
CREATE INDEX inquiries_estate_created_idx ON inquiries (estate_id, created_at DESC, id DESC);
CREATE INDEX inquiries_apartment_ids_idx ON inquiries USING gin (apartment_ids);

-- comments, portals and pois belong to one panorama and are always read with it: jsonb arrays.
CREATE TABLE panoramas (
  id uuid PRIMARY KEY,
  organization_id uuid NOT NULL REFERENCES organizations (id) ON DELETE CASCADE,
  apartment_id uuid NOT NULL REFERENCES apartments (id) ON DELETE CASCADE,
  name text NOT NULL,
  src text NOT NULL,
  priority integer NOT NULL DEFAULT 0,
  seo_title text,
  seo_description text,
  metadata jsonb NOT NULL DEFAULT '{}',
  comments jsonb NOT NULL DEFAULT '[]',
  portals jsonb NOT NULL DEFAULT '[]',
  pois jsonb NOT NULL DEFAULT '[]',
  linked_panorama_ids uuid[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX panoramas_apartment_idx ON panoramas (organization_id, apartment_id, priority DESC, created_at, id);

-- behalf.md: coordinators and their clients, carers, a request's history, reports.

-- § 1 and § 4: two roles and two permissions. Coordinators also create requests; admins hold both new ones.
INSERT INTO roles (id, name, description) VALUES
  (4, 'coordinator', 'Asks for help for people without an account (clients) and acts on their requests'),
  (5, 'manager', 'Reads the reports');
INSERT INTO permissions (id, name, resource, action, description) VALUES
  (5, 'coordinate_requests', 'requests', 'coordinate', 'Ask for help for clients and act on their requests'),
  (6, 'view_reports', 'reports', 'view', 'Read the summary and download the requests CSV');
INSERT INTO role_permissions (role_id, permission_id) VALUES (4, 1), (4, 5), (3, 5), (3, 6), (5, 6);

-- § 1: a person without an account whom coordinators ask for. Erasure deletes the row (requests keep client_id).
CREATE TABLE clients (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  first_name text NOT NULL,
  last_name text NOT NULL,
  phone text,
  -- The phone's digits without the leading + or 00, for the search by number.
  phone_digits text,
  address text,
  city text,
  latitude double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision CHECK (longitude BETWEEN -180 AND 180),
  needs text,
  consent_how text NOT NULL CHECK (consent_how IN ('phone', 'in_person', 'written')),
  consent_recorded_by bigint REFERENCES users (id),
  consent_recorded_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL,
  CHECK ((latitude IS NULL) = (longitude IS NULL))
);
CREATE INDEX clients_by_update ON clients (updated_at DESC, id DESC);

-- § 1: a request asked for a client (no foreign key: an erased client's requests keep the id);
-- § 2: the carer who created a request for the person (its requester).
ALTER TABLE requests ADD COLUMN client_id bigint, ADD COLUMN created_by_carer bigint REFERENCES users (id);
CREATE INDEX requests_by_client ON requests (client_id) WHERE client_id IS NOT NULL;

-- § 2: a person (owner) lets someone they trust act for them. carer_id is set when the address has an
-- account, at the invitation or when that person later registers and looks.
CREATE TABLE trusted_people (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  owner_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email text NOT NULL,
  carer_id bigint REFERENCES users (id) ON DELETE CASCADE,
  can text[] NOT NULL,
  status text NOT NULL DEFAULT 'invited' CHECK (status IN ('invited', 'accepted', 'declined')),
  created_at timestamptz NOT NULL,
  decided_at timestamptz
);
CREATE INDEX trusted_people_by_owner ON trusted_people (owner_id, id);
CREATE INDEX trusted_people_by_carer ON trusted_people (carer_id, owner_id) WHERE carer_id IS NOT NULL;
CREATE INDEX trusted_people_by_email ON trusted_people (lower(email));

-- § 3: who did what when, written in the change's transaction; actor_id null for the service.
CREATE TABLE request_history (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id bigint NOT NULL REFERENCES requests (id),
  at timestamptz NOT NULL,
  action text NOT NULL CHECK (action IN ('created', 'approved', 'rejected', 'offer_made', 'offer_withdrawn', 'offer_rejected',
    'accepted', 'confirmed', 'reminded', 'cancelled', 'completed', 'alert_round', 'edited')),
  actor_id bigint REFERENCES users (id),
  actor_role text NOT NULL CHECK (actor_role IN ('requester', 'carer', 'coordinator', 'volunteer', 'moderator', 'admin', 'service')),
  on_behalf_client_id bigint,
  on_behalf_user_id bigint,
  details jsonb NOT NULL DEFAULT '{}'
);
CREATE INDEX request_history_by_request ON request_history (request_id, id);

-- § 1 and § 2: two new notification types.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('request_alert', 'request_alert_closed',
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'response_rejected',
  'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised', 'concern_resolved',
  'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'request_expired',
  'still_needed', 'please_complete', 'trust_invitation', 'request_created_for_you'));

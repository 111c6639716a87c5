-- trust.md §5: who has been shown someone's contact details. One row per viewer, owner, request, kind,
-- role and set of fields; `ats` holds the times of its records, one per view, except that a view within
-- 10 minutes of the newest replaces it. Keeping the records of one key in one row lets a single
-- INSERT ... ON CONFLICT decide "new record or same record" atomically, however many reads race.
CREATE TABLE access_records (
  id bigserial PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('request', 'profile')),
  viewer_id bigint NOT NULL REFERENCES users (id),
  owner_id bigint NOT NULL REFERENCES users (id),
  request_id bigint REFERENCES requests (id),
  viewer_role text NOT NULL CHECK (viewer_role IN ('requester', 'assigned volunteer', 'moderator', 'admin')),
  fields text[] NOT NULL,
  ats timestamptz[] NOT NULL,
  last_at timestamptz NOT NULL
);
-- One index, the key, which also serves both logs by its prefix: a profile's (kind, owner) and a request's
-- (kind, owner = its requester, request). Every view of contact details writes here, so each index costs.
CREATE UNIQUE INDEX access_records_key ON access_records (kind, owner_id, (COALESCE(request_id, 0)), viewer_id, viewer_role, fields);

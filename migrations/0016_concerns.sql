-- trust.md §4: a concern about a person or a request, raised by anyone signed in, resolved by a moderator.
-- Rows are never deleted: they outlive the erasure of the reporter or the subject (whose rows stay, named
-- "Former user") and are left out of RETENTION_DAYS, since safeguarding records outlive requests.
CREATE TABLE concerns (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  reporter_id bigint NOT NULL REFERENCES users (id),
  subject_user_id bigint REFERENCES users (id),
  request_id bigint REFERENCES requests (id),
  text text NOT NULL CHECK (char_length(text) BETWEEN 10 AND 2000),
  urgent boolean NOT NULL DEFAULT false,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
  outcome text CHECK (outcome IN ('no_action', 'warned', 'blocked', 'referred')),
  outcome_note text CHECK (char_length(outcome_note) <= 2000),
  created_at timestamptz NOT NULL,
  resolved_at timestamptz,
  resolved_by bigint REFERENCES users (id),
  CHECK (subject_user_id IS NOT NULL OR request_id IS NOT NULL),
  -- Open exactly when nothing about its resolution is recorded; resolved exactly when all of it is.
  CHECK ((status = 'open') = (outcome IS NULL AND outcome_note IS NULL AND resolved_at IS NULL AND resolved_by IS NULL)),
  CHECK (status = 'open' OR (outcome IS NOT NULL AND outcome_note IS NOT NULL AND resolved_at IS NOT NULL AND resolved_by IS NOT NULL)),
  CHECK (outcome IS DISTINCT FROM 'blocked' OR subject_user_id IS NOT NULL)
);

-- The reporter's own list (newest first) and the per-reporter 24-hour limit.
CREATE INDEX concerns_by_reporter ON concerns (reporter_id, created_at);
-- The moderators' queue: by status, urgent first, then oldest first.
CREATE INDEX concerns_queue ON concerns (status, urgent DESC, created_at, id);

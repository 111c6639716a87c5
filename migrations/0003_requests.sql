CREATE TABLE requests (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  requester_id bigint NOT NULL REFERENCES users (id),
  request_type_id bigint NOT NULL REFERENCES request_types (id),
  assigned_volunteer_id bigint REFERENCES users (id),
  title text NOT NULL,
  description text NOT NULL,
  latitude double precision NOT NULL CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision NOT NULL CHECK (longitude BETWEEN -180 AND 180),
  -- The point on the earth as a cube, derived so it can never disagree with latitude/longitude.
  location cube GENERATED ALWAYS AS (ll_to_earth(latitude, longitude)) STORED,
  address text NOT NULL,
  city text,
  desired_completion_date timestamptz,
  urgency text NOT NULL CHECK (urgency IN ('low', 'medium', 'high', 'urgent')),
  status text NOT NULL DEFAULT 'pending_moderation'
    CHECK (status IN ('pending_moderation', 'approved', 'in_progress', 'completed', 'cancelled', 'rejected')),
  contact_phone text,
  contact_notes text,
  moderated_by bigint REFERENCES users (id),
  moderated_at timestamptz,
  moderation_comment text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Only active requests are searched, so only they are indexed: finished history never slows a search.
CREATE INDEX requests_active_location ON requests USING gist (location)
  WHERE status IN ('pending_moderation', 'approved', 'in_progress');
CREATE INDEX requests_by_requester ON requests (requester_id, created_at DESC, id DESC);
CREATE INDEX requests_pending_queue ON requests (created_at, id) WHERE status = 'pending_moderation';
CREATE INDEX requests_by_moderator ON requests (moderated_by, moderated_at DESC, id DESC) WHERE moderated_by IS NOT NULL;
CREATE INDEX requests_by_volunteer ON requests (assigned_volunteer_id) WHERE assigned_volunteer_id IS NOT NULL;

CREATE TABLE volunteer_responses (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id bigint NOT NULL REFERENCES requests (id),
  volunteer_id bigint NOT NULL REFERENCES users (id),
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'accepted', 'rejected', 'cancelled')),
  message text,
  responded_at timestamptz NOT NULL DEFAULT now(),
  accepted_at timestamptz,
  rejected_at timestamptz,
  cancelled_at timestamptz
);
-- The database, not process memory, enforces the lifecycle's "at most one" rules.
CREATE UNIQUE INDEX volunteer_responses_one_open ON volunteer_responses (request_id, volunteer_id)
  WHERE status IN ('pending', 'accepted');
CREATE UNIQUE INDEX volunteer_responses_one_accepted ON volunteer_responses (request_id)
  WHERE status = 'accepted';
CREATE INDEX volunteer_responses_by_volunteer ON volunteer_responses (volunteer_id);

CREATE TABLE ratings (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  request_id bigint NOT NULL UNIQUE REFERENCES requests (id),
  volunteer_id bigint NOT NULL REFERENCES users (id),
  rater_id bigint NOT NULL REFERENCES users (id),
  score smallint NOT NULL CHECK (score BETWEEN 1 AND 5),
  comment text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ratings_by_volunteer ON ratings (volunteer_id);

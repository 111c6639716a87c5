-- Volunteer availability and the durable notification inbox (events.md § 1, 2, 4).
CREATE TABLE volunteer_availability (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  on_duty boolean NOT NULL DEFAULT false,
  radius_meters integer NOT NULL DEFAULT 5000 CHECK (radius_meters BETWEEN 100 AND 50000),
  -- Both or neither: neither means "use the home location" (users.latitude/longitude).
  latitude double precision CHECK (latitude BETWEEN -90 AND 90),
  longitude double precision CHECK (longitude BETWEEN -180 AND 180),
  -- Empty: every kind of request.
  request_type_ids bigint[] NOT NULL DEFAULT '{}',
  max_alerts_per_day integer NOT NULL DEFAULT 10 CHECK (max_alerts_per_day BETWEEN 0 AND 50),
  updated_at timestamptz NOT NULL DEFAULT now(),
  -- The effective alert point (ll_to_earth of the availability point, else of the home location), NULL
  -- when there is none. Written by the service whenever availability or the home location changes
  -- (availability.repo.ts), so choosing volunteers is one GiST search without a join to users.
  alert_point cube,
  CHECK ((latitude IS NULL) = (longitude IS NULL))
);
-- Only volunteers on duty are ever searched, so only they are indexed.
CREATE INDEX volunteer_availability_on_duty_point ON volunteer_availability USING gist (alert_point) WHERE on_duty;

CREATE TABLE notifications (
  -- Allocated after the recipient's inbox lock is taken (notifications.repo.ts), so within one
  -- recipient's inbox ids increase in commit order.
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  type text NOT NULL CHECK (type IN ('request_alert', 'request_alert_closed', 'request_approved', 'request_rejected',
    'response_received', 'response_withdrawn', 'response_accepted', 'response_rejected', 'request_cancelled', 'request_completed')),
  request_id bigint NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  data jsonb NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  read_at timestamptz
);
-- The inbox (newest first, before an id), the stream's tail (id > last seen) and the unread count.
CREATE INDEX notifications_by_user ON notifications (user_id, id);
-- Unread ones only: the unread count, `unread_only` lists and marking read stay small as inboxes grow.
CREATE INDEX notifications_unread ON notifications (user_id, id) WHERE read_at IS NULL;
-- For the foreign-key check when a request row is deleted.
CREATE INDEX notifications_by_request ON notifications (request_id);

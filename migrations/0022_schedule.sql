-- schedule.md: time windows, series, confirmation the day before, reminders, expiry, calendar feeds.

-- § 2: a series is moderated once and creates ordinary requests (occurrences) in a rolling horizon.
CREATE TABLE request_series (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  requester_id bigint NOT NULL REFERENCES users (id),
  -- The fields of CreateRequestInput but the dates, checked as on creation (and auto_accept_preferred).
  template jsonb NOT NULL,
  days text[] NOT NULL,
  start_time text NOT NULL CHECK (start_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  duration_minutes integer NOT NULL CHECK (duration_minutes BETWEEN 15 AND 720),
  every_weeks integer NOT NULL DEFAULT 1 CHECK (every_weeks BETWEEN 1 AND 4),
  starts_on date NOT NULL,
  ends_on date,
  return_time text CHECK (return_time ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  time_zone text NOT NULL,
  preferred_volunteer_id bigint REFERENCES users (id),
  status text NOT NULL DEFAULT 'pending_moderation'
    CHECK (status IN ('pending_moderation', 'active', 'rejected', 'ended')),
  moderated_by bigint REFERENCES users (id),
  moderated_at timestamptz,
  moderation_comment text,
  -- Occurrences whose window starts before this are created (the horizon job's progress); null: none yet.
  created_until timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX request_series_by_requester ON request_series (requester_id, created_at DESC, id DESC);
CREATE INDEX request_series_pending ON request_series (created_at, id) WHERE status = 'pending_moderation';
CREATE INDEX request_series_active ON request_series (created_until, id) WHERE status = 'active';

-- § 1 and § 3: a request's window, its series, the outbound trip of a return, the volunteer's confirmation,
-- and why it was cancelled.
ALTER TABLE requests
  ADD COLUMN window_start timestamptz,
  ADD COLUMN window_end timestamptz,
  ADD COLUMN series_id bigint REFERENCES request_series (id),
  ADD COLUMN return_of bigint REFERENCES requests (id),
  ADD COLUMN confirmed_at timestamptz,
  ADD COLUMN cancel_reason text CHECK (cancel_reason IN ('requester', 'moderator', 'expired', 'series_changed')),
  -- § 3 still needed: when the requester was last asked, or answered (a new question waits STALE_AFTER_DAYS).
  ADD COLUMN still_needed_at timestamptz,
  ADD CONSTRAINT requests_window_pair CHECK ((window_start IS NULL) = (window_end IS NULL)),
  ADD CONSTRAINT requests_window_order CHECK (window_end > window_start);
-- One occurrence per series and start time, whatever instances or restarts do; one cancelled because its
-- series changed makes way for the one created anew.
CREATE UNIQUE INDEX requests_one_occurrence ON requests (series_id, window_start)
  WHERE series_id IS NOT NULL AND cancel_reason IS DISTINCT FROM 'series_changed';
CREATE INDEX requests_by_series ON requests (series_id, window_start) WHERE series_id IS NOT NULL;
-- The jobs of § 3 look for active requests by the time of their window (or their date).
CREATE INDEX requests_active_window ON requests (window_start) WHERE status IN ('approved', 'in_progress') AND window_start IS NOT NULL;

-- § 3: at most one message per request, person and reason, whatever instances or restarts do.
CREATE TABLE schedule_messages (
  request_id bigint NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  reason text NOT NULL,
  sent_at timestamptz NOT NULL,
  PRIMARY KEY (request_id, user_id, reason)
);
CREATE INDEX schedule_messages_by_user ON schedule_messages (user_id);

-- § 3: rounds after a missed confirmation run at the urgent interval, whatever the request's urgency.
ALTER TABLE alert_rounds ADD COLUMN urgent boolean NOT NULL DEFAULT false;

-- § 4: a person's calendar feed; only the token's hash is kept.
CREATE TABLE calendar_feeds (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL
);

-- § 3: the eight new notification types.
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('request_alert', 'request_alert_closed',
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'response_rejected',
  'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised', 'concern_resolved',
  'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'request_expired',
  'still_needed', 'please_complete'));

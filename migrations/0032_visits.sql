-- docs/api/visit-checks.md: a visit checked in and out, the jobs' stamps, and the hours and mileage recorded after it.
-- One row per request and volunteer: a volunteer assigned after another withdrew starts a visit of their own.
-- The stamps make each message and the concern once across instances and restarts: a job sets its stamp in
-- the transaction that notifies (or raises the concern), only where it was still null.
CREATE TABLE request_visits (
  request_id bigint NOT NULL REFERENCES requests (id),
  volunteer_id bigint NOT NULL REFERENCES users (id),
  checked_in_at timestamptz,
  checked_out_at timestamptz,
  -- The volunteer checked out worried: its concern raised once (never shown on the requester's side).
  worried_at timestamptz,
  not_started_at timestamptz,
  overdue_at timestamptz,
  escalated_at timestamptz,
  minutes integer CHECK (minutes BETWEEN 0 AND 1440),
  distance_km numeric(5, 1) CHECK (distance_km BETWEEN 0 AND 1000),
  expenses_at timestamptz,
  PRIMARY KEY (request_id, volunteer_id),
  CHECK (checked_out_at IS NULL OR checked_in_at IS NOT NULL),
  CHECK (escalated_at IS NULL OR overdue_at IS NOT NULL)
);
-- The overdue and escalation steps look only at visits under way.
CREATE INDEX request_visits_open ON request_visits (checked_in_at) WHERE checked_in_at IS NOT NULL AND checked_out_at IS NULL;

-- A concern raised by the service (a visit not checked out) has no reporter; every concern says its kind.
ALTER TABLE concerns ALTER COLUMN reporter_id DROP NOT NULL;
ALTER TABLE concerns ADD COLUMN kind text NOT NULL DEFAULT 'report' CHECK (kind IN ('report', 'visit_overdue'));
ALTER TABLE concerns ADD CONSTRAINT concerns_reporter_by_kind CHECK ((kind = 'report') = (reporter_id IS NOT NULL));
-- At most one visit_overdue concern per request and volunteer, whatever instances or restarts do.
CREATE UNIQUE INDEX concerns_one_overdue ON concerns (request_id, subject_user_id) WHERE kind = 'visit_overdue';

ALTER TABLE request_history DROP CONSTRAINT request_history_action_check;
ALTER TABLE request_history ADD CONSTRAINT request_history_action_check CHECK (action IN ('created', 'approved', 'rejected', 'offer_made',
  'offer_withdrawn', 'offer_rejected', 'accepted', 'confirmed', 'reminded', 'cancelled', 'completed', 'alert_round', 'edited',
  'checked_in', 'checked_out', 'visit_not_started', 'visit_overdue'));

ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('request_alert', 'request_alert_closed',
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'response_rejected',
  'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised', 'concern_resolved',
  'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'request_expired',
  'still_needed', 'please_complete', 'trust_invitation', 'request_created_for_you', 'visit_not_started', 'visit_overdue'));

-- Fair nearby alerts (events.md § 5).

-- The next alert round of each request that has one to come: due at due_at. A round is claimed with
-- FOR UPDATE SKIP LOCKED by whichever instance looks first, run, and then moved on (round + 1, a later
-- due_at) or deleted, all in one transaction: so it runs once, and a round that falls due while no
-- process runs is still here, due, when one starts. One row per request: approving schedules round 1,
-- and the request returning to approved schedules it again (alerts.repo.ts).
CREATE TABLE alert_rounds (
  request_id bigint PRIMARY KEY REFERENCES requests (id) ON DELETE CASCADE,
  round integer NOT NULL CHECK (round >= 1),
  due_at timestamptz NOT NULL
);
CREATE INDEX alert_rounds_due ON alert_rounds (due_at);

-- Alerts sent. The primary key makes "at most once per request" a rule of the database, whatever
-- instances or restarts do. closed_at: when the volunteer was told the request closed
-- (request_alert_closed), so nobody is told twice.
CREATE TABLE request_alerts (
  request_id bigint NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  volunteer_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  round integer NOT NULL,
  sent_at timestamptz NOT NULL,
  closed_at timestamptz,
  PRIMARY KEY (request_id, volunteer_id)
);
-- A volunteer's alerts of the last 24 hours (the daily cap, the fairness order) and their last alert:
-- both index range scans, whatever the volunteer's history.
CREATE INDEX request_alerts_by_volunteer ON request_alerts (volunteer_id, sent_at);

-- reach.md § 3: a volunteer who comes on duty (or moves, widens their radius, changes their kinds while on
-- duty) is told of open requests whose rounds are already under way.

-- When the request's rounds (last) started: a catch-up considers only requests whose rounds started at or
-- before its trigger; a request approved later has its own round 1, which considers the volunteer.
ALTER TABLE alert_rounds ADD COLUMN started_at timestamptz NOT NULL DEFAULT now();

-- Catch-ups to run: one row per trigger, written in the trigger's transaction (so none is lost, and none is
-- run for a change that rolled back), run and deleted by the alerts job (alerts/catch-up.service.ts).
-- A new row per trigger, never an update: writing a trigger never waits for a catch-up under way.
CREATE TABLE alert_catch_ups (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  volunteer_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  due_at timestamptz NOT NULL
);
CREATE INDEX alert_catch_ups_due ON alert_catch_ups (due_at, id);
CREATE INDEX alert_catch_ups_by_volunteer ON alert_catch_ups (volunteer_id);

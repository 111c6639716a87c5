-- Each volunteer's newest alert times (events.md § 5), so that choosing among thousands of volunteers in
-- one ring reads their 24-hour count and last alert from their own row instead of request_alerts, once
-- per volunteer. Ascending, at most 50: the largest max_alerts_per_day, so the count of the last 24 hours
-- (never above the cap) is exact. Kept by availability.repo.ts recordAlerts in each round's transaction.
ALTER TABLE volunteer_availability ADD COLUMN alert_times timestamptz[] NOT NULL DEFAULT '{}';

UPDATE volunteer_availability v SET alert_times = ARRAY(
  SELECT sent_at FROM (
    SELECT a.sent_at FROM request_alerts a WHERE a.volunteer_id = v.user_id ORDER BY a.sent_at DESC LIMIT 50
  ) newest ORDER BY sent_at);

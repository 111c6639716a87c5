-- The retention job deletes notifications older than NOTIFICATION_RETENTION_DAYS (events.md § 2), oldest
-- first, in batches: this index finds them without reading the younger ones.
CREATE INDEX notifications_by_time ON notifications (created_at);

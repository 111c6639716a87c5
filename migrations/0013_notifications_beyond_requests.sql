-- trust.md: a check about to expire and a concern are notified too; a concern may be about a person
-- and no request, so a notification's request is optional (null when it is about none).
ALTER TABLE notifications ALTER COLUMN request_id DROP NOT NULL;
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('request_alert', 'request_alert_closed',
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'response_rejected',
  'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised', 'concern_resolved'));

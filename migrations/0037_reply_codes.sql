-- Replies with a code (docs/api/messaging.md › Texts › Replies): YES to an alert, OK to a request to confirm, NO to
-- a requester's text about a request still open. The code is what proves a reply comes from the phone that got
-- the text (a sender's number can be forged).

-- One code per text, that is per delivery: made from the delivery's id and `salt` under a key from the signing
-- secret, so a repeat after a crash sends the same code and the database holds only its MAC. Unique per number
-- among the codes kept (another salt when two would meet); a number's codes older than 48 hours go as new ones are written.
CREATE TABLE sms_codes (
  delivery_id bigint PRIMARY KEY REFERENCES deliveries (id) ON DELETE CASCADE,
  e164 text NOT NULL,
  code_mac text NOT NULL,
  salt integer NOT NULL,
  answer text NOT NULL CHECK (answer IN ('yes', 'ok', 'no')),
  request_id bigint NOT NULL REFERENCES requests (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL,
  used_at timestamptz,
  UNIQUE (e164, code_mac)
);
CREATE INDEX sms_codes_by_request ON sms_codes (request_id);

-- Wrong codes a number sent today (days in TIME_ZONE): after five, no code from it acts until the next day, so a
-- forged sender cannot try the 10,000 codes. Rows of days before yesterday go as rows are written.
CREATE TABLE sms_code_misses (
  e164 text NOT NULL,
  day date NOT NULL,
  misses integer NOT NULL,
  PRIMARY KEY (e164, day)
);

-- A client's NO: the coordinators are told to check with the client (docs/api/on-behalf.md › Texts to a client).
ALTER TABLE notifications DROP CONSTRAINT notifications_type_check;
ALTER TABLE notifications ADD CONSTRAINT notifications_type_check CHECK (type IN ('request_alert', 'request_alert_closed',
  'request_approved', 'request_rejected', 'response_received', 'response_withdrawn', 'response_accepted', 'response_rejected',
  'request_cancelled', 'request_completed', 'check_expiring', 'concern_raised', 'concern_resolved',
  'series_invitation', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'request_expired',
  'still_needed', 'please_complete', 'trust_invitation', 'request_created_for_you', 'visit_not_started', 'visit_overdue',
  'client_says_not_needed'));

-- The answer to a reply with a code, by text: the request it was about and what came of it.
ALTER TABLE deliveries ADD COLUMN reply_request_id bigint REFERENCES requests (id) ON DELETE CASCADE;
ALTER TABLE deliveries ADD COLUMN reply_outcome text;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_reply_answer
  CHECK ((account_message IS NOT DISTINCT FROM 'sms_answer') = (reply_request_id IS NOT NULL AND reply_outcome IS NOT NULL));
CREATE INDEX deliveries_by_reply_request ON deliveries (reply_request_id) WHERE reply_request_id IS NOT NULL;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_message_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_message_check
  CHECK (account_message IN ('sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed', 'verify_phone_code',
    'sms_stopped', 'sms_started', 'sms_help', 'sms_sorry', 'sms_answer'));
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_channel;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_channel
  CHECK (account_message IS NULL OR (channel = 'sms') = (account_message IN ('verify_phone_code', 'sms_stopped', 'sms_started', 'sms_help', 'sms_sorry', 'sms_answer')));

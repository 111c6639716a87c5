-- Texts (docs/api/messaging.md › Texts): the sms channel in the outbox, confirmed numbers, STOP per number,
-- the daily budgets, and the texts preferences of people and the consent of coordinators' clients.

-- A profile's phone gets texts only once confirmed by a code texted to it; changing the phone clears this.
ALTER TABLE users ADD COLUMN phone_verified_at timestamptz;

-- Per number in E.164, whoever holds it: a number that replied STOP gets nothing, codes included.
CREATE TABLE sms_numbers (
  e164 text PRIMARY KEY,
  stopped_at timestamptz,
  updated_at timestamptz NOT NULL
);

-- Texts counted per day (in TIME_ZONE), per number and for the whole service (number '*'). Only today's
-- and yesterday's rows are needed; older ones are deleted as the counting goes.
CREATE TABLE sms_budget (
  day date NOT NULL,
  number text NOT NULL,
  texts integer NOT NULL,
  PRIMARY KEY (day, number)
);

ALTER TABLE notification_settings ADD COLUMN sms_enabled boolean NOT NULL DEFAULT false;
ALTER TABLE notification_settings ADD COLUMN sms_types text[] NOT NULL
  DEFAULT ARRAY['request_alert', 'response_accepted', 'request_cancelled', 'confirm_needed', 'volunteer_confirmed', 'confirmation_missed', 'reminder', 'still_needed'];

ALTER TABLE deliveries DROP CONSTRAINT deliveries_channel_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_channel_check CHECK (channel IN ('email', 'push', 'sms'));
-- A text's receipt moves it on from sent.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_status_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_status_check CHECK (status IN ('pending', 'sent', 'delivered', 'undeliverable', 'failed', 'dropped'));
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_message_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_message_check
  CHECK (account_message IN ('sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed', 'verify_phone_code'));
-- Account messages go by e-mail, except the phone's code, which goes by text.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_check1;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_channel
  CHECK (account_message IS NULL OR (channel = 'sms') = (account_message = 'verify_phone_code'));
-- The gateway's id of a submitted text (its receipt names it) and the segments it took.
ALTER TABLE deliveries ADD COLUMN gateway_message_id text;
ALTER TABLE deliveries ADD COLUMN segments integer;
CREATE INDEX deliveries_by_gateway_id ON deliveries (gateway_message_id) WHERE gateway_message_id IS NOT NULL;
-- A text to a coordinator's client: the row belongs to the coordinator's notification, the text to the client.
ALTER TABLE deliveries ADD COLUMN client_id bigint REFERENCES clients (id) ON DELETE CASCADE;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_client_text CHECK (client_id IS NULL OR channel = 'sms');
CREATE INDEX deliveries_by_client ON deliveries (client_id) WHERE client_id IS NOT NULL;

ALTER TABLE auth_codes DROP CONSTRAINT auth_codes_purpose_check;
ALTER TABLE auth_codes ADD CONSTRAINT auth_codes_purpose_check CHECK (purpose IN ('password_reset', 'sign_in', 'verify_email', 'verify_phone'));

-- A client's consent to texts, heard and recorded by a coordinator, and the language of their texts.
ALTER TABLE clients ADD COLUMN texts_how text CHECK (texts_how IN ('phone', 'in_person', 'written'));
ALTER TABLE clients ADD COLUMN texts_recorded_by bigint REFERENCES users (id) ON DELETE SET NULL;
ALTER TABLE clients ADD COLUMN texts_recorded_at timestamptz;
ALTER TABLE clients ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'de'));

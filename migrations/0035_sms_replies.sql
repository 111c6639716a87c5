-- Replies to texts (docs/api/messaging.md › Texts › Replies): STOP, START and HELP, each acted on once however
-- often the gateway hands the same text over.

-- The texts acted on, by the gateway's id of each (a repeat finds its row); kept two days, since an SMPP text's id
-- names its day.
CREATE TABLE sms_received (
  gateway_id text PRIMARY KEY,
  received_at timestamptz NOT NULL
);
CREATE INDEX sms_received_by_time ON sms_received (received_at);

-- A reply is matched to the people who confirmed its number, as their profiles hold it.
CREATE INDEX users_by_confirmed_phone ON users (phone) WHERE phone_verified_at IS NOT NULL;

-- The answers to STOP, START and HELP go by text, like the phone's code.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_message_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_message_check
  CHECK (account_message IN ('sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed', 'verify_phone_code',
    'sms_stopped', 'sms_started', 'sms_help'));
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_channel;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_channel
  CHECK (account_message IS NULL OR (channel = 'sms') = (account_message IN ('verify_phone_code', 'sms_stopped', 'sms_started', 'sms_help')));

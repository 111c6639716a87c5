-- The texts inbox (docs/api/messaging.md › Texts › The inbox): a text the service did not understand (no keyword, or a
-- wrong or old code) from a number somebody confirmed, or from a client who agreed to texts, kept for coordinators
-- (a client's) and moderators (everyone's) to deal with; one "sorry" answer a day per number; and a count of the
-- texts from numbers nobody confirmed, which are not stored.

-- Exactly one sender: a person's account or a coordinators' client; each row goes with its sender. request_id: the
-- request the text was about, when a code named one.
CREATE TABLE sms_inbox (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  received_at timestamptz NOT NULL,
  user_id bigint REFERENCES users (id) ON DELETE CASCADE,
  client_id bigint REFERENCES clients (id) ON DELETE CASCADE,
  text text NOT NULL,
  request_id bigint REFERENCES requests (id) ON DELETE SET NULL,
  handled_by bigint REFERENCES users (id) ON DELETE SET NULL,
  handled_at timestamptz,
  CONSTRAINT sms_inbox_one_sender CHECK ((user_id IS NULL) <> (client_id IS NULL))
);
-- The list, newest first; scanned from its other end, also the retention job's oldest rows first.
CREATE INDEX sms_inbox_newest ON sms_inbox (received_at DESC, id DESC);
-- The coordinators' list: clients' texts only.
CREATE INDEX sms_inbox_newest_of_clients ON sms_inbox (received_at DESC, id DESC) WHERE client_id IS NOT NULL;
-- A person's texts (export, erasure) and a client's (the cascade of their erasure).
CREATE INDEX sms_inbox_by_user ON sms_inbox (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX sms_inbox_by_client ON sms_inbox (client_id) WHERE client_id IS NOT NULL;

-- The numbers that were answered "sorry" today (in TIME_ZONE): at most once a day each. Only today's rows are needed;
-- older ones are deleted as they are written, so no number is kept past its day.
CREATE TABLE sms_sorry (
  e164 text PRIMARY KEY,
  day date NOT NULL
);

-- Running counts of incoming texts that are not stored: `unknown_number`, a text the service did not understand from
-- a number nobody confirmed. Read by /metrics; the same on every instance.
CREATE TABLE sms_counts (
  kind text PRIMARY KEY CHECK (kind IN ('unknown_number')),
  texts bigint NOT NULL
);

-- A client's number is matched to an incoming text only where the client agreed to texts.
CREATE INDEX clients_by_texts_phone ON clients (phone) WHERE texts_how IS NOT NULL;

-- The "sorry" answer goes by text, like the answers to STOP, START and HELP.
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_message_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_message_check
  CHECK (account_message IN ('sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed', 'verify_phone_code',
    'sms_stopped', 'sms_started', 'sms_help', 'sms_sorry'));
ALTER TABLE deliveries DROP CONSTRAINT deliveries_account_channel;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_account_channel
  CHECK (account_message IS NULL OR (channel = 'sms') = (account_message IN ('verify_phone_code', 'sms_stopped', 'sms_started', 'sms_help', 'sms_sorry')));

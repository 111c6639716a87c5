-- reach.md: e-mail and Web Push deliveries, each person's choices, and codes for getting back in.

-- §1: the language of a person's messages (the web app sets it from the language they chose).
ALTER TABLE users ADD COLUMN locale text NOT NULL DEFAULT 'en' CHECK (locale IN ('en', 'de'));

-- §1 Preferences: a row once a person has changed something; no row means the defaults of reach.md.
CREATE TABLE notification_settings (
  user_id bigint PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  email_enabled boolean NOT NULL,
  email_types text[] NOT NULL,
  push_enabled boolean NOT NULL,
  push_types text[] NOT NULL,
  quiet_start text CHECK (quiet_start ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  quiet_end text CHECK (quiet_end ~ '^([01][0-9]|2[0-3]):[0-5][0-9]$'),
  -- NULL: the deployment's TIME_ZONE, followed when the operator changes it.
  time_zone text,
  CHECK ((quiet_start IS NULL) = (quiet_end IS NULL))
);

-- §1 Push subscriptions: one row per endpoint, whoever sent it.
CREATE TABLE push_subscriptions (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint text NOT NULL UNIQUE,
  p256dh text NOT NULL,
  auth text NOT NULL,
  created_at timestamptz NOT NULL,
  last_success_at timestamptz
);
CREATE INDEX push_subscriptions_by_user ON push_subscriptions (user_id, created_at);

-- §1 Delivery guarantees: the outbox. Rows are written in the notification's transaction (or, for an
-- account message of §2, the transaction that made the code) and sent by whichever instance claims them.
CREATE TABLE deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- A notification's delivery; NULL for an account message (§2), which `account_message` names.
  notification_id bigint REFERENCES notifications (id) ON DELETE CASCADE,
  account_message text CHECK (account_message IN ('sign_in_code', 'password_reset_code', 'verify_email_code', 'email_verified', 'password_changed')),
  channel text NOT NULL CHECK (channel IN ('email', 'push')),
  -- push: the device; a removed subscription leaves its past deliveries in the owner's list.
  subscription_id bigint REFERENCES push_subscriptions (id) ON DELETE SET NULL,
  -- An account message's code, sealed with a key from the signing secret; cleared once sent or failed.
  secret text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'sent', 'failed', 'dropped')),
  attempts integer NOT NULL DEFAULT 0,
  -- When it may next be sent: now, the end of the recipient's quiet hours, or the next retry.
  due_at timestamptz NOT NULL,
  last_error text,
  sent_at timestamptz,
  created_at timestamptz NOT NULL,
  CHECK ((notification_id IS NULL) = (account_message IS NOT NULL)),
  CHECK (account_message IS NULL OR channel = 'email')
);
-- The sending loop: due pending rows, oldest first.
CREATE INDEX deliveries_due ON deliveries (due_at, id) WHERE status = 'pending';
-- GET /users/me/deliveries, newest first.
CREATE INDEX deliveries_by_user ON deliveries (user_id, id);
CREATE INDEX deliveries_by_notification ON deliveries (notification_id);

-- §2 codes: one live code per person and purpose (asking again replaces it), stored only as a hash.
CREATE TABLE auth_codes (
  user_id bigint NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  purpose text NOT NULL CHECK (purpose IN ('password_reset', 'sign_in', 'verify_email')),
  code_hash text NOT NULL,
  failed_tries integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (user_id, purpose)
);

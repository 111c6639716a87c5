-- trust.md § 2: checks an organisation made about a person (identity, background, training, reference).
-- Rows are never deleted while the account exists: a revoked or expired check stays as the record of
-- who vetted whom and when. Erasure revokes them and clears their notes (docs/privacy.md › Checks).
CREATE TABLE user_checks (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES users (id),
  kind text NOT NULL CHECK (kind IN ('identity', 'background', 'training', 'reference')),
  note text CHECK (char_length(note) <= 500),
  -- The last day (in TIME_ZONE) on which the check is valid; null: it does not expire.
  valid_until date,
  -- Null only for identity checks carried over below from the old is_verified flag, whose verifier was never recorded.
  verified_by bigint REFERENCES users (id),
  verified_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz,
  -- When check_expiring was sent: once per check.
  expiry_notified_at timestamptz
);

-- A user's valid checks (profiles, offers, eligibility): read by user and kind.
CREATE INDEX user_checks_by_user ON user_checks (user_id, kind) WHERE revoked_at IS NULL;
-- The expiry job's search: checks with an end date not yet notified.
CREATE INDEX user_checks_to_notify ON user_checks (valid_until)
  WHERE revoked_at IS NULL AND valid_until IS NOT NULL AND expiry_notified_at IS NULL;

-- is_verified is now derived from the checks (true exactly when a valid identity check exists), so an
-- expiring check turns it off without anyone writing; the old flag becomes a check without expiry.
INSERT INTO user_checks (user_id, kind, verified_at)
  SELECT id, 'identity', updated_at FROM users WHERE is_verified AND erased_at IS NULL;
ALTER TABLE users DROP COLUMN is_verified;

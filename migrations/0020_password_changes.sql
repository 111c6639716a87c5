-- reach.md § 2: a password reset or change revokes the account's refresh tokens with its own reason,
-- so a session that ended this way can be told from a logout or a block.
ALTER TABLE refresh_tokens DROP CONSTRAINT refresh_tokens_revoked_reason_check;
ALTER TABLE refresh_tokens ADD CONSTRAINT refresh_tokens_revoked_reason_check
  CHECK (revoked_reason IN ('rotated', 'logout', 'reuse', 'blocked', 'erased', 'password'));

-- Carers (docs/api.md): an invitation to an address without an account is e-mailed there, through the outbox.
-- The row's user_id is the inviter's (whose language the e-mail is in); the address is the invitation's,
-- read when it is sent. A revoked invitation (its row deleted) takes its unsent e-mail with it.
ALTER TABLE deliveries ADD COLUMN invitation_id bigint REFERENCES trusted_people (id) ON DELETE CASCADE;
ALTER TABLE deliveries DROP CONSTRAINT deliveries_check;
ALTER TABLE deliveries ADD CONSTRAINT deliveries_one_kind CHECK (num_nonnulls(notification_id, account_message, invitation_id) = 1);
ALTER TABLE deliveries ADD CONSTRAINT deliveries_invitation_email CHECK (invitation_id IS NULL OR channel = 'email');
CREATE INDEX deliveries_by_invitation ON deliveries (invitation_id) WHERE invitation_id IS NOT NULL;

-- behalf.md § 1: a coordinator who did not create a client's request is shown its contact details as one of
-- its parties; the access record (trust.md § 5) says so rather than calling them a moderator.
ALTER TABLE access_records DROP CONSTRAINT access_records_viewer_role_check;
ALTER TABLE access_records ADD CONSTRAINT access_records_viewer_role_check
  CHECK (viewer_role IN ('requester', 'assigned volunteer', 'moderator', 'admin', 'coordinator'));

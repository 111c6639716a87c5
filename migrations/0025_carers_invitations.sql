-- behalf.md § 2 (docs/api.md › Carers): one invitation per person and address, so inviting the same
-- address again changes that invitation instead of adding a second; two racing invitations meet here.
CREATE UNIQUE INDEX trusted_people_one_per_address ON trusted_people (owner_id, lower(email));

-- trust.md § 5: a carer shown the person's contact details or address is recorded, as `carer`.
ALTER TABLE access_records DROP CONSTRAINT access_records_viewer_role_check;
ALTER TABLE access_records ADD CONSTRAINT access_records_viewer_role_check
  CHECK (viewer_role IN ('requester', 'assigned volunteer', 'moderator', 'admin', 'carer'));

-- docs/api/on-behalf.md › Series for someone: a series asked for a client (no foreign key, as on requests: an
-- erased client's series keep the id), or by a carer for the person (its requester). Its occurrences carry both.
ALTER TABLE request_series ADD COLUMN client_id bigint, ADD COLUMN created_by_carer bigint REFERENCES users (id);
CREATE INDEX request_series_by_client ON request_series (client_id) WHERE client_id IS NOT NULL;

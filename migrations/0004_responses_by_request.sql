-- Responses of one request, in the order they are listed (oldest first). Without it, listing a request's
-- responses, and the foreign-key check when a request row is deleted, read the whole table: cost that grew
-- with history (170 ms at 4 million responses; docs/performance.md).
CREATE INDEX volunteer_responses_by_request ON volunteer_responses (request_id, responded_at, id);

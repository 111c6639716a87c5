-- behalf.md § 4: the reports place a request in a period by when it was created or when it finished, and
-- read what they count from the indexes alone (no visit to the table's pages, which a million requests
-- spread over far more memory than the server caches; docs/performance.md › Reports).
-- By creation: the summary's counts (type and urgency included), and the CSV's pages in (created_at, id) order.
CREATE INDEX requests_by_created ON requests (created_at, id) INCLUDE (request_type_id, urgency);
-- By end: completed and cancelled requests (rejected ones are in no figure of what ended), with what the
-- summary counts of them.
CREATE INDEX requests_by_finished ON requests (finished_at)
  INCLUDE (id, status, cancel_reason, requester_id, client_id, assigned_volunteer_id) WHERE status IN ('completed', 'cancelled');
-- A request's first offer and first acceptance (the summary's waits, the CSV's minutes).
CREATE INDEX volunteer_responses_report ON volunteer_responses (request_id, responded_at) INCLUDE (accepted_at);
-- The accepted offer's time, for the hours of help.
CREATE INDEX volunteer_responses_accepted_at ON volunteer_responses (request_id) INCLUDE (accepted_at) WHERE status = 'accepted';

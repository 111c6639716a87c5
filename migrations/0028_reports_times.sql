-- behalf.md § 4: the times the summary's medians and hours of help are measured from, kept on the request so
-- the reports read them from requests_by_created and requests_by_finished alone instead of looking up each
-- request's offers (docs/performance.md › Reports). first_offer_at and first_accepted_at are the earliest
-- responded_at and accepted_at of the request's offers, whatever became of them (an offer withdrawn or
-- rejected later, or an acceptance withdrawn, does not undo the wait measured), never cleared; assigned_at is
-- the accepted_at of the assignment in force (cleared when it is withdrawn), read for completed requests.
-- All three are kept in the offer's and the acceptance's transactions (requests.repo.ts markOffered, setAssignment).
ALTER TABLE requests ADD COLUMN first_offer_at timestamptz, ADD COLUMN first_accepted_at timestamptz, ADD COLUMN assigned_at timestamptz;

-- The requests' past offers (the two indexes rebuilt after the update, which is quicker without them).
DROP INDEX requests_by_created;
DROP INDEX requests_by_finished;
UPDATE requests r SET first_offer_at = o.first_offer, first_accepted_at = o.first_accept, assigned_at = o.assigned
FROM (SELECT request_id, min(responded_at) AS first_offer, min(accepted_at) AS first_accept,
    max(accepted_at) FILTER (WHERE status = 'accepted') AS assigned
  FROM volunteer_responses GROUP BY request_id) o
WHERE r.id = o.request_id;

-- By creation: the summary's counts and medians, and the CSV's pages in (created_at, id) order.
CREATE INDEX requests_by_created ON requests (created_at, id) INCLUDE (request_type_id, urgency, first_offer_at, first_accepted_at);
-- By end: completed and cancelled requests (rejected ones are in no figure of what ended), with what the
-- summary counts of them.
CREATE INDEX requests_by_finished ON requests (finished_at)
  INCLUDE (id, status, cancel_reason, requester_id, client_id, assigned_volunteer_id, assigned_at) WHERE status IN ('completed', 'cancelled');
-- Read by nothing now: the reports read these times from requests.
DROP INDEX volunteer_responses_report;
DROP INDEX volunteer_responses_accepted_at;

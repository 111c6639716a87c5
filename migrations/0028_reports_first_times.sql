-- behalf.md § 4: the summary's medians (creation to first offer, to first acceptance) over the requests created
-- in a period, read from requests_by_created alone instead of a lookup of each request's offers
-- (docs/performance.md › Reports). Each column is the earliest responded_at / accepted_at of the request's
-- offers, whatever became of them (an offer withdrawn or rejected later, or an acceptance withdrawn, does not
-- undo the wait measured, as before), kept so in the offer's and the acceptance's transactions
-- (requests.repo.ts markOffered, setAssignment) and never cleared.
ALTER TABLE requests ADD COLUMN first_offer_at timestamptz, ADD COLUMN first_accepted_at timestamptz;

-- The requests' past offers: the earliest offer and the earliest acceptance of each, whatever became of them.
DROP INDEX requests_by_created;
UPDATE requests r SET first_offer_at = o.first_offer, first_accepted_at = o.first_accept
FROM (SELECT request_id, min(responded_at) AS first_offer, min(accepted_at) AS first_accept
  FROM volunteer_responses GROUP BY request_id) o
WHERE r.id = o.request_id;

-- By creation: the summary's counts and medians, and the CSV's pages in (created_at, id) order.
CREATE INDEX requests_by_created ON requests (created_at, id) INCLUDE (request_type_id, urgency, first_offer_at, first_accepted_at);
-- Read by nothing now (the CSV reads the two times from requests too).
DROP INDEX volunteer_responses_report;

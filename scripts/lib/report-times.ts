/**
 * For scripts that write past offers set-based (seed, bench): each request's first offer's, first
 * acceptance's and assignment's times, which the reports read from the request (docs/api/on-behalf.md › Reports for funders), derived from
 * its offers as migrations/0028_reports_times.sql derives them. The service keeps them in the offer's and
 * the acceptance's transactions (requests.repo.ts markOffered, setAssignment).
 */
// direct write: set-based, for rows the scripts wrote set-based with past times (used by seed.ts, bench-reports.ts)
export const REPORT_TIMES_FROM_OFFERS = /* sql */ `
  UPDATE requests r SET first_offer_at = o.first_offer, first_accepted_at = o.first_accept, assigned_at = o.assigned
  FROM (SELECT request_id, min(responded_at) AS first_offer, min(accepted_at) AS first_accept,
      max(accepted_at) FILTER (WHERE status = 'accepted') AS assigned
    FROM volunteer_responses GROUP BY request_id) o
  WHERE r.id = o.request_id AND r.first_offer_at IS NULL`

-- behalf.md § 4: the reports place a request in a period by when it was created or when it finished.
-- By creation: the summary's counts read this index alone (type and urgency included), and the CSV pages
-- through it in (created_at, id) order.
CREATE INDEX requests_by_created ON requests (created_at, id) INCLUDE (request_type_id, urgency);
-- By end: completed and cancelled requests (rejected ones are in no figure of what ended).
CREATE INDEX requests_by_finished ON requests (finished_at) WHERE status IN ('completed', 'cancelled');

-- The sending loop's lease on a delivery it has claimed (docs/api.md › Deliveries): no other instance claims
-- the row before it ends. The sender renews it while it holds the row and clears it when the outcome is
-- written, so a dead sender's rows are free when its lease ends, and the embedded engine's one process frees
-- its own at start-up. Kept apart from due_at, which stays the time the row was due.
ALTER TABLE deliveries ADD COLUMN leased_until timestamptz;

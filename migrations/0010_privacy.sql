-- privacy.md and map.md: each request's grid point, when it finished, whether it was minimised; erased accounts.

-- The centre of the request's MAP_GRID_METERS cell, computed by the service (src/lib/grid.ts, the one copy of
-- the formula) on insert, and recomputed at start-up for rows whose grid_meters differs from the setting.
ALTER TABLE requests
  ADD COLUMN grid_latitude double precision CHECK (grid_latitude BETWEEN -90 AND 90),
  ADD COLUMN grid_longitude double precision CHECK (grid_longitude BETWEEN -180 AND 180),
  ADD COLUMN grid_meters integer,
  ADD COLUMN finished_at timestamptz,
  ADD COLUMN minimised_at timestamptz;
ALTER TABLE requests ADD COLUMN grid_location cube GENERATED ALWAYS AS (ll_to_earth(grid_latitude, grid_longitude)) STORED;

-- Searches with LOCATION_PRIVACY=grid read this index as exact searches read requests_active_location.
CREATE INDEX requests_active_grid_location ON requests USING gist (grid_location)
  WHERE status IN ('pending_moderation', 'approved', 'in_progress');
-- Start-up finds the rows whose grid point was computed for another grid size (or none) without a full scan.
CREATE INDEX requests_by_grid_meters ON requests (grid_meters);

-- When a request reached completed, cancelled or rejected. Set by a trigger, so that every transition, in
-- whichever statement, records it; requests finished before this migration count from their last change.
UPDATE requests SET finished_at = updated_at WHERE status IN ('completed', 'cancelled', 'rejected');

CREATE FUNCTION requests_set_finished_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status IN ('completed', 'cancelled', 'rejected')
     AND (TG_OP = 'INSERT' OR OLD.status NOT IN ('completed', 'cancelled', 'rejected')) THEN
    NEW.finished_at := COALESCE(NEW.finished_at, now());
    IF TG_OP = 'UPDATE' THEN NEW.finished_at := now(); END IF;
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER requests_finished_at BEFORE INSERT OR UPDATE OF status ON requests
  FOR EACH ROW EXECUTE FUNCTION requests_set_finished_at();

-- The retention job's queue: finished requests not yet minimised, oldest first.
CREATE INDEX requests_to_minimise ON requests (finished_at, id)
  WHERE minimised_at IS NULL AND status IN ('completed', 'cancelled', 'rejected');

-- An erased account keeps its row (ratings and histories point to it) but can never authenticate again.
ALTER TABLE users ADD COLUMN erased_at timestamptz;

-- Erasure revokes every refresh token with its own reason.
ALTER TABLE refresh_tokens DROP CONSTRAINT refresh_tokens_revoked_reason_check;
ALTER TABLE refresh_tokens ADD CONSTRAINT refresh_tokens_revoked_reason_check
  CHECK (revoked_reason IN ('rotated', 'logout', 'reuse', 'blocked', 'erased'));

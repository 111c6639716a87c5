-- privacy.md § 2 and § 3 for series (schedule.md § 2): a finished series' template loses its contact data,
-- address, description and exact point, as a finished request does; minimised once.
ALTER TABLE request_series ADD COLUMN minimised_at timestamptz;
CREATE INDEX request_series_to_minimise ON request_series (updated_at, id)
  WHERE status IN ('ended', 'rejected') AND minimised_at IS NULL;

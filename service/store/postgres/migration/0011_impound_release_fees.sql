-- The fee lines of a redemption, frozen at release (Minneapolis 62.40,
-- Chanhassen 5-74): what the owner paid stays as it was computed that
-- day, whatever the profile says later. One row per impoundment; lines
-- is the JSON list of service.ReleaseFee. The lookup does not read it.
CREATE TABLE impound_release_fees (
	impound_id BIGINT PRIMARY KEY REFERENCES impoundments (id),
	lines      TEXT NOT NULL,
	created_at TIMESTAMPTZ NOT NULL
);

-- Bodies content-addressed by sha256: each body stored once, however many fetches or runs share it.
-- A sources row keeps its sha256 and the fetch's metadata; its bytes are the bodies row of that sha256.
CREATE TABLE IF NOT EXISTS bodies (
    sha256 TEXT PRIMARY KEY,                -- hex digest of body, computed from the bytes themselves
    body {bytes} NOT NULL                   -- never empty: a fetch with no bytes has no bodies row
);
-- Every stored body moves there (its sha256 checked against the bytes, and set where it was not theirs).
-- step: move_bodies
ALTER TABLE sources DROP COLUMN body;

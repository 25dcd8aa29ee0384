-- 0003: decisions with an author and a history, runs assigned to editors.
--
-- Every change of one field of a decision is an append-only event, and the decisions table stays
-- the current state, written in the same transaction as the event. A decision's version is
-- the seq of its latest event (a decision saved before this migration keeps its version and
-- its next event takes the next number). The primary key on (run_id, claim_id, seq) is what
-- refuses the second of two saves made on one version, on SQLite and PostgreSQL alike.
CREATE TABLE IF NOT EXISTS decision_events (
    run_id TEXT NOT NULL,
    claim_id TEXT NOT NULL,
    seq INTEGER NOT NULL,                   -- 1, 2, ... per claim
    field TEXT NOT NULL,                    -- decision, note, same_period, same_metric, same_population
    before TEXT NOT NULL DEFAULT '',        -- a Choice value, the note, or yes / no / '' (not answered)
    after TEXT NOT NULL DEFAULT '',
    author TEXT NOT NULL DEFAULT '',        -- the editor's name, '' = recorded under no name
    at TEXT NOT NULL,
    PRIMARY KEY (run_id, claim_id, seq)
);
-- Who made the latest change ('' for the decisions recorded before there were authors).
ALTER TABLE decisions ADD COLUMN decided_by TEXT NOT NULL DEFAULT '';
-- Who decided last on a run, for the run list.
CREATE INDEX IF NOT EXISTS decisions_by_time ON decisions (run_id, decided_at);
-- Who a run is assigned to: the latest row (assigned_to '' = given back, unassigned).
CREATE TABLE IF NOT EXISTS assignments (
    run_id TEXT NOT NULL,
    seq INTEGER NOT NULL,
    assigned_to TEXT NOT NULL DEFAULT '',
    assigned_by TEXT NOT NULL DEFAULT '',
    at TEXT NOT NULL,
    PRIMARY KEY (run_id, seq)
);
-- How many claims a run has, written with its report, so the run list never reads a report
-- to count them. The runs saved before this column are counted here, from their summary_json.
ALTER TABLE runs ADD COLUMN claims INTEGER;
-- step: count_claims
-- The run list reads only this index: on SQLite a column stored after the report would walk
-- the report's overflow pages for every run listed.
CREATE INDEX IF NOT EXISTS runs_listed ON runs (created_at, run_id, brief_name, client, claims, summary_json);

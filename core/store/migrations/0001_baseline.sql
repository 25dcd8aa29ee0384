-- The store as it stood before numbered migrations: sources, runs, decisions and the page-text cache.
-- IF NOT EXISTS: a store file made before migrations already has these tables (its missing columns
-- are added in place by core/store/columns.py when this migration is recorded for it).
CREATE TABLE IF NOT EXISTS sources (
    id {id},
    url TEXT NOT NULL,
    final_url TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    http_status INTEGER,
    headers TEXT NOT NULL DEFAULT '[]',     -- JSON list of [name, value] pairs
    content_type TEXT NOT NULL DEFAULT '',
    sha256 TEXT NOT NULL DEFAULT '',
    fetched_at TEXT NOT NULL,
    body {bytes},
    origin TEXT NOT NULL DEFAULT 'fetched',
    reason TEXT NOT NULL DEFAULT '',
    drift INTEGER NOT NULL DEFAULT 0,
    addresses TEXT NOT NULL DEFAULT ''      -- JSON list of [host, address] pairs a fetch connected to
);
CREATE INDEX IF NOT EXISTS sources_by_url ON sources (url, id);
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    brief_name TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    summary_json TEXT NOT NULL DEFAULT '{}',
    report_json TEXT NOT NULL,
    brief_raw {bytes},
    client TEXT NOT NULL DEFAULT ''         -- the agent's MCP client name; '' = an editor or the CLI
);
CREATE INDEX IF NOT EXISTS runs_by_time ON runs (created_at);
CREATE TABLE IF NOT EXISTS decisions (
    run_id TEXT NOT NULL,
    claim_id TEXT NOT NULL,
    decision TEXT NOT NULL DEFAULT '',
    note TEXT NOT NULL DEFAULT '',
    same_period INTEGER,                    -- 1 yes, 0 no, NULL not answered
    same_metric INTEGER,
    same_population INTEGER,
    decided_at TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,     -- raised by one on every saved change
    PRIMARY KEY (run_id, claim_id)
);
CREATE TABLE IF NOT EXISTS page_texts (      -- extracted text, a cache: derivable from the stored body
    body_sha256 TEXT NOT NULL,
    content_type TEXT NOT NULL,
    extractor TEXT NOT NULL,                -- changes whenever the extraction code changes
    page_json TEXT NOT NULL,
    PRIMARY KEY (body_sha256, content_type, extractor)
);

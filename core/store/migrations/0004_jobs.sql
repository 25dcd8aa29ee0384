-- Checks as jobs (team store on PostgreSQL): one record per queued check, one progress row per source.
-- The queue itself (procrastinate's tables) is applied by core.jobs.schema; these rows are what the desk reads.
CREATE TABLE IF NOT EXISTS jobs (
    job_id {id},
    run_id TEXT NOT NULL UNIQUE,             -- chosen when queued: the run is saved under it, once
    brief_name TEXT NOT NULL DEFAULT '',
    brief_raw {bytes},                       -- the brief file as queued: a worker on any machine reads it
    allow_private INTEGER NOT NULL DEFAULT 0,
    allowed_domains TEXT NOT NULL DEFAULT '[]',  -- JSON list
    ocr INTEGER NOT NULL DEFAULT 0,
    refresh INTEGER NOT NULL DEFAULT 0,
    offline INTEGER NOT NULL DEFAULT 0,
    queued_by TEXT NOT NULL DEFAULT '',
    state TEXT NOT NULL DEFAULT 'queued',    -- queued, running, done, failed
    attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT NOT NULL DEFAULT '',
    worker TEXT NOT NULL DEFAULT '',         -- host:pid of the worker that ran it last
    claims INTEGER NOT NULL DEFAULT 0,
    sources INTEGER NOT NULL DEFAULT 0,
    queued_at TEXT NOT NULL,
    started_at TEXT NOT NULL DEFAULT '',
    finished_at TEXT NOT NULL DEFAULT ''
);
CREATE INDEX IF NOT EXISTS jobs_by_state ON jobs (state, job_id);
CREATE TABLE IF NOT EXISTS job_sources (
    job_id BIGINT NOT NULL,
    url TEXT NOT NULL,
    state TEXT NOT NULL,                     -- core.models.FetchState
    detail TEXT NOT NULL DEFAULT '',
    updated_at TEXT NOT NULL,
    PRIMARY KEY (job_id, url)
);

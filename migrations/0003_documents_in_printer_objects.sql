-- Documents move into their printer's Durable Object (SQLite storage); D1 keeps only batched
-- per-hour counters for statistics and retention. Existing rows in `documents` are counted
-- here and imported by each printer's object the first time it starts (then deleted from D1,
-- see src/worker/objects/d1-import.ts); the table stays until every printer has imported.

CREATE TABLE document_counters (
  printer_id TEXT NOT NULL,
  workspace_id TEXT NOT NULL,
  -- UTC hour of the documents' creation, 'YYYY-MM-DDTHH'.
  hour TEXT NOT NULL,
  -- Documents created in that hour and still stored.
  documents INTEGER NOT NULL,
  last_at TEXT,
  PRIMARY KEY (printer_id, hour)
);
CREATE INDEX document_counters_by_workspace ON document_counters (workspace_id, hour);
CREATE INDEX document_counters_by_hour ON document_counters (hour);

INSERT INTO document_counters (printer_id, workspace_id, hour, documents, last_at)
  SELECT printer_id, workspace_id, substr(created_at, 1, 13), COUNT(*), MAX(created_at)
  FROM documents GROUP BY printer_id, workspace_id, substr(created_at, 1, 13);

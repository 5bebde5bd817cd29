-- Cloud printers (extensions.md "Cloud printers"): the server a printer polls, as JSON
-- {kind, url, intervalSeconds}; NULL: the printer polls nothing.
ALTER TABLE printers ADD COLUMN cloud_print TEXT;
-- The poller's state for runtimeStatus (written when the error changes, else at most every 30 s).
ALTER TABLE printers ADD COLUMN cloud_print_last_poll_at TEXT;
ALTER TABLE printers ADD COLUMN cloud_print_last_error TEXT;

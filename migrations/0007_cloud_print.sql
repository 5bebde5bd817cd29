-- Cloud printers (extensions.md "Cloud printers"): the server a printer polls, as JSON
-- {kind, url, intervalSeconds}; NULL: the printer polls nothing.
ALTER TABLE printers ADD COLUMN cloud_print TEXT;

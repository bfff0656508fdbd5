-- The index on licences (expires_on) cost every licence insert a fifth
-- b-tree; its only reader is the renewal-reminder filter
-- (LicenceFilter.ExpiresBefore), a batch job for which a scan of the
-- table is fast enough. Dropping it keeps a million-licence import
-- within its time budget.
DROP INDEX IF EXISTS licences_expires;

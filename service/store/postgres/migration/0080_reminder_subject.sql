-- A reminder is of licences or of permits (a permit's renewal, Chanhassen
-- 5-18(c)): subject names which, and licence_id then holds the first
-- permit's id.
ALTER TABLE reminders ADD COLUMN subject TEXT NOT NULL DEFAULT 'licence' CHECK (subject IN ('licence', 'permit'));

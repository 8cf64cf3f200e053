-- Whether the business saved its configuration, and so chose its time zone. Until it does, the
-- setup pages suggest the time zone of its address's state instead of the column's default.
-- A business already submitted, or one whose zone is not the default, has made its choice.
ALTER TABLE businesses ADD COLUMN time_zone_chosen boolean NOT NULL DEFAULT false;
UPDATE businesses SET time_zone_chosen = true WHERE state <> 'Incomplete' OR time_zone <> 'America/New_York';

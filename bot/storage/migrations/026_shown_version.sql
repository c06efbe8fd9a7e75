-- The version of the table that every Discord surface showed when a delivery pass last brought them
-- all up to date (NULL: not known). A process that starts, or takes a table over, with nothing in
-- memory of what the surfaces show takes a table still at this version as shown, so a pass it asks
-- for (a notice due while the bot was down) calls Discord only for what changed. Tables clean now
-- show their version.
ALTER TABLE game_tables ADD COLUMN shown_version INTEGER;
UPDATE game_tables SET shown_version = version WHERE dirty = 0;

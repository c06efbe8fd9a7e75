-- How far each table's log goes (the last table_log.seq; 0 for none), kept with the table by the
-- move that writes the log: a delivery pass reads the log only when there is something past what
-- the record shows (``recorded``), not on every pass.
ALTER TABLE game_tables ADD COLUMN logged INTEGER NOT NULL DEFAULT 0;
UPDATE game_tables SET logged = COALESCE((SELECT MAX(seq) FROM table_log WHERE table_log.table_id = game_tables.id), 0);

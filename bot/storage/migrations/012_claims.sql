-- Work on a table that processes sharing one database must not do twice, or at once:
-- due_claim: until when (epoch seconds) one process handles the table's passed deadline or reminder;
-- courier: the process that last brought the table's Discord messages up to date.
ALTER TABLE game_tables ADD COLUMN due_claim REAL;
ALTER TABLE game_tables ADD COLUMN courier TEXT;

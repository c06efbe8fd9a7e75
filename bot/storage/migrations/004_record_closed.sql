-- A record message is closed once its deal has ended; the next lines start a new message.
ALTER TABLE records ADD COLUMN closed INTEGER NOT NULL DEFAULT 0;

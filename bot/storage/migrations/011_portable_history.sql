-- Rating history in an order both SQLite and PostgreSQL keep (PostgreSQL has no rowid):
-- n: the player's rated games in this server and game, counting this one; pos: the row's place
-- among the table's rows, as written.
ALTER TABLE rating_history ADD COLUMN n INTEGER NOT NULL DEFAULT 0;
ALTER TABLE rating_history ADD COLUMN pos INTEGER NOT NULL DEFAULT 0;
--sqlite: UPDATE rating_history SET pos = rowid, n = (SELECT COUNT(*) FROM rating_history h WHERE h.guild_id = rating_history.guild_id AND h.game = rating_history.game AND h.user_id = rating_history.user_id AND h.rowid <= rating_history.rowid);
CREATE INDEX rating_history_n ON rating_history(guild_id, game, user_id, n);

-- Each member's DM channel with the bot, once opened: after a restart the bot sends hands there
-- straight away, instead of fetching the member and opening the channel again (two calls that count
-- towards Discord's 50 a second).
CREATE TABLE dm_channels (
    user_id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL
);

-- Keys of the web pages (bot/web): 'pages' signs the pages' addresses. Made once by whichever
-- process starts first, and read by every process sharing the database, so they sign alike.
CREATE TABLE web_keys (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL
);

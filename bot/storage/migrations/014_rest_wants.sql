-- Discord's global limit is per bot, whatever the number of processes: processes sharing one
-- database split it through this table. Every second each writes how many REST calls it wanted in
-- the last second, and what it holds of the budget: the larger of its part and what it used in the
-- last second, so that another process takes only what is free.
CREATE TABLE rest_wants (
    process TEXT PRIMARY KEY,
    wanted REAL NOT NULL,
    holding REAL NOT NULL,
    updated_at REAL NOT NULL
);

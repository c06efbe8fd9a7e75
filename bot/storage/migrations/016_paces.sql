-- When a table's message and its record were last edited (wall-clock seconds). With several
-- processes, whichever delivers the table next reads them, so each surface keeps its pace (one
-- edit per 2 s and per 5 s) however often the table passes from one process to another.
CREATE TABLE paces (
    table_id INTEGER NOT NULL REFERENCES game_tables(id) ON DELETE CASCADE,
    surface TEXT NOT NULL,  -- 'message' | 'record'
    at REAL NOT NULL,
    PRIMARY KEY (table_id, surface)
);

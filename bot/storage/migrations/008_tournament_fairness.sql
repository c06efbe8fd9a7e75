-- Fair pairings and final standings that stay final.
ALTER TABLE tournaments ADD COLUMN pairing TEXT;                      -- Swiss: 'standings' | 'repeats'; NULL: by table size
ALTER TABLE tournaments ADD COLUMN fill TEXT NOT NULL DEFAULT 'byes'; -- 'byes' | 'computers' (empty seats instead of byes)
ALTER TABLE tournaments ADD COLUMN final_standings TEXT;              -- JSON, stored once when the event ends
ALTER TABLE tournaments ADD COLUMN standings_message_id INTEGER;      -- the live standings message in the event channel
ALTER TABLE entrants ADD COLUMN rating REAL;                          -- tie-break rating, frozen at the start or a late entry
ALTER TABLE entrants ADD COLUMN replaced TEXT;                        -- names of the players this entry took over from
ALTER TABLE tournaments ADD COLUMN round_hours INTEGER;               -- a deadline for each round, besides the move clock
ALTER TABLE tournaments ADD COLUMN round_deadline REAL;               -- the current round's; NULL once handled
ALTER TABLE tournaments ADD COLUMN round_reminded INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN confirm_pairings INTEGER NOT NULL DEFAULT 0; -- the organizer confirms each round's seating
ALTER TABLE tournaments ADD COLUMN round_confirmed INTEGER NOT NULL DEFAULT 0;  -- the last round whose seating was confirmed
ALTER TABLE tournaments ADD COLUMN checkin_minutes INTEGER;           -- check-in opens this long before the sign-up deadline
ALTER TABLE tournaments ADD COLUMN checkin_open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE entrants ADD COLUMN checked_in INTEGER NOT NULL DEFAULT 0;

-- How strong an event's computers are: they fill seats, play for players out of time, and take
-- over dropped players' seats at this level ('easy' | 'normal' | 'hard').
ALTER TABLE tournaments ADD COLUMN computer_level TEXT NOT NULL DEFAULT 'hard';

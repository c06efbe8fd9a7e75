-- Who a member took a seat over from during play (the stored name of the seat before: a member's
-- name or a computer's 'computer:N'), so the table's seat list can say it once. NULL: nobody.
ALTER TABLE seats ADD COLUMN replaced TEXT;

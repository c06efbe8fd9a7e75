"""Final Quest: two teams deduce each other's three-card hands (RULINGS §4)."""

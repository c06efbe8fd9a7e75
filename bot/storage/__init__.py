"""Storage: the SQLite store, its rows and its numbered migrations."""

from bot.storage.store import Seat, Store, TableRow, insert_row, now, update_row

__all__ = ["Seat", "Store", "TableRow", "insert_row", "now", "update_row"]

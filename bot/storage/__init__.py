"""Storage: every SQL statement of the bot, behind the ``Database`` interface (``database.py``),
one module per owner of the tables (``store.py`` game tables, ``outbox.py``, ``events.py``,
``ratings.py``), and the numbered migrations."""

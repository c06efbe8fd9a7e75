"""The bot's web pages, served by its own process (aiohttp): a live view of every table, a replay
of every finished game and its export. Read-only: a visitor's request never changes a table.

``app.py`` builds the application and its routes, ``site.py`` what the pages read (tables,
engines, replays) and who may see them, ``markup.py`` and ``pages.py`` the HTML, from the games'
own renderers and the message catalogs, ``live.py`` the server-sent events.
"""

"""One package per game; each holds engine.py (pure rules), its cog, views and rendering."""

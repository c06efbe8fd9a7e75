"""Arsène, new edition: jewel-shop trick-taking with clashes, police and pushes (RULINGS §1)."""

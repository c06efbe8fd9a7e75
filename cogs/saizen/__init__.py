"""Saizen ("Best"): a must-win trick-taking game with four switchable rule cards."""

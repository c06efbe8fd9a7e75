"""Othello de Torite: Othello where discs have suits and the lead marker passes by tricks."""

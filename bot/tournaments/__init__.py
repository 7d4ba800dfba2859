"""Tournaments: round robin, single elimination and Swiss, each match a normal game in its own thread.

The pure parts (pairings, standings, tie-breaks, the bracket) are in roundrobin.py, elimination.py,
swiss.py, standings.py and formats.py; the flow (creating, joining, starting, rounds, results, the round's
time limit) is in manager.py and rounds.py, persisted through `bot.tournaments.ports.TournamentRecords`.
"""

"""``twofold leaderboard``: a web service of boards of verified results.

:mod:`.server` is the HTTP API and its pages (docs/leaderboard.md), :mod:`.verifier`
verifies submissions in worker processes, :mod:`.boards` keeps the entries in SQLite or
PostgreSQL, :mod:`.page` draws the pages. It stands on core (the proofs) only: it is no
front end of the game, and no front end imports it.
"""

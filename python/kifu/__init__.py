"""kifu: fast, trustworthy Go game records (SGF) for Python.

Read and parse::

    collection = kifu.read("game.sgf")          # or kifu.parse(data)
    game = collection.games[0]
    game.size, game.komi, game.rules, game.result, game.players
    game.moves()                                 # [("B", (15, 3)), ("W", None), ...]

Whole archives, parsed on Rust threads, in input order::

    for path, game in kifu.games(["archive/", "more.zip"]):
        replay = game.replay()                   # NumPy boards, moves, colours, captures
        replay.boards                            # int8 (n + 1, height, width)

Check and rescore, as the ``kifu`` command line does::

    kifu.check("games/")                         # [Diagnostic(code, severity, message, line, ...)]
    kifu.score(game)                             # the fields of `kifu score --format json`

Points are ``(x, y)``, 0-based, x the column from the left and y the row
from the top (the SGF letter order); ``None`` is a pass.
"""

from typing import List, Optional, TypedDict

from ._kifu import (
    Collection,
    Diagnostic,
    Game,
    GameStream,
    IllegalMoveError,
    Node,
    Replay,
    __version__,
    check,
    games,
    parse,
    read,
    score,
)


class Players(TypedDict):
    """``Game.players``: names and ranks from PB, PW, BR, WR."""

    black: Optional[str]
    white: Optional[str]
    black_rank: Optional[str]
    white_rank: Optional[str]


class Side(TypedDict):
    """One side's count in a ``ScoreResult``."""

    territory: int
    stones: int
    prisoners: int
    dead: int
    total: float


class UnsureGroup(TypedDict):
    """A chain the estimator was unsure of: one stone, why, and the call it kept."""

    point: str
    reason: str
    dead: bool


class ScoreResult(TypedDict):
    """What ``kifu.score()`` returns for a game: the fields of ``kifu score --format json``."""

    file: Optional[str]
    game: int
    rules: str
    scoring: str
    komi: float
    handicap_bonus: float
    black: Side
    white: Side
    dead_stones: List[str]
    seki_points: List[str]
    unsure: List[str]
    unsure_groups: List[UnsureGroup]
    dead_stones_from: str
    winner: Optional[str]
    margin: float
    result: str
    recorded: Optional[str]
    agrees: Optional[bool]
    finished: bool
    verified: bool
    cause: Optional[str]
    doubts: List[str]


__all__ = [
    "Collection",
    "Diagnostic",
    "Game",
    "GameStream",
    "IllegalMoveError",
    "Node",
    "Players",
    "Replay",
    "ScoreResult",
    "UnsureGroup",
    "Side",
    "__version__",
    "check",
    "games",
    "parse",
    "read",
    "score",
]

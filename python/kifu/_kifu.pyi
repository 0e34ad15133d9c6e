"""Type stubs for the native part of kifu (re-exported by ``kifu``)."""

import os
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union, final, overload

import numpy as np
import numpy.typing as npt

from . import Players, ScoreResult

__version__: str
__all__ = ["__version__", "read", "parse", "check", "score", "games", "Collection", "Game", "Node", "Replay", "Diagnostic", "GameStream", "IllegalMoveError"]

_StrPath = Union[str, "os.PathLike[str]"]
_Point = Tuple[int, int]
_Move = Tuple[str, Optional[_Point]]
"""``(colour, (x, y))``: colour ``"B"`` or ``"W"``; ``None`` for a pass."""

@final
class Diagnostic:
    """A problem found: the fields of ``kifu check --format jsonl``."""

    @property
    def code(self) -> str: ...
    @property
    def severity(self) -> str: ...
    @property
    def message(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...
    @property
    def game(self) -> Optional[int]: ...
    @property
    def move(self) -> Optional[int]: ...
    @property
    def color(self) -> Optional[str]: ...
    @property
    def point(self) -> Optional[str]: ...
    @property
    def variation(self) -> Optional[List[int]]: ...
    @property
    def file(self) -> Optional[str]: ...
    def to_dict(self) -> Dict[str, object]: ...

class IllegalMoveError(ValueError):
    """A move the rules forbid (or that is not a move) stopped a replay."""

    diagnostic: Diagnostic
    replay: "Replay"

@final
class Replay:
    """A line replayed into NumPy arrays (``Game.replay()``)."""

    @property
    def boards(self) -> npt.NDArray[np.int8]:
        """int8 ``(n + 1, height, width)``: 1 black, -1 white, 0 empty."""
    @property
    def moves(self) -> npt.NDArray[np.int16]:
        """int16 ``(n, 2)``: ``(x, y)``, ``(-1, -1)`` for a pass."""
    @property
    def colors(self) -> npt.NDArray[np.int8]:
        """int8 ``(n,)``: 1 Black, -1 White."""
    @property
    def captures(self) -> npt.NDArray[np.int16]:
        """int16 ``(n,)``: the stones each move captured."""
    @property
    def rules(self) -> str: ...
    @property
    def stopped(self) -> Optional[Diagnostic]: ...
    @property
    def complete(self) -> bool: ...
    def __len__(self) -> int: ...

@final
class Node:
    """A node of a game tree."""

    @property
    def properties(self) -> Dict[str, List[str]]: ...
    def get(self, id: str, default: Optional[str] = None) -> Optional[str]: ...
    def values(self, id: str) -> List[str]: ...
    @property
    def move(self) -> Optional[_Move]: ...
    @property
    def children(self) -> List["Node"]: ...
    @property
    def parent(self) -> Optional["Node"]: ...
    @property
    def line(self) -> int: ...
    @property
    def column(self) -> int: ...

@final
class Game:
    """One game: game info, moves, tree, and ``replay()`` into NumPy."""

    @property
    def file(self) -> Optional[str]: ...
    @property
    def index(self) -> int: ...
    @property
    def root(self) -> Dict[str, str]: ...
    def values(self, id: str) -> List[str]: ...
    @property
    def size(self) -> Tuple[int, int]: ...
    @property
    def komi(self) -> Optional[float]: ...
    @property
    def handicap(self) -> Optional[int]: ...
    @property
    def rules(self) -> str: ...
    @property
    def result(self) -> Optional[str]: ...
    @property
    def players(self) -> Players: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    def moves(self, variation: Sequence[int] = ()) -> List[_Move]: ...
    def variations(self) -> List[List[int]]: ...
    @property
    def root_node(self) -> Node: ...
    def replay(
        self,
        variation: Sequence[int] = (),
        *,
        strict: bool = True,
        rules: Optional[str] = None,
        ko: Optional[str] = None,
        suicide: Optional[str] = None,
    ) -> Replay: ...
    def to_sgf(self) -> str: ...

@final
class Collection:
    """The games of one record file and the problems met reading it."""

    @property
    def games(self) -> List[Game]: ...
    @property
    def diagnostics(self) -> List[Diagnostic]: ...
    @property
    def file(self) -> Optional[str]: ...
    @property
    def encoding(self) -> str: ...
    def __len__(self) -> int: ...
    def __getitem__(self, index: int, /) -> Game: ...
    def __iter__(self) -> Iterator[Game]: ...

@final
@final
class GameStream(Iterator[Tuple[str, Game]]):
    """``kifu.games()``: ``(path, Game)`` for every game, in input order."""

    def __iter__(self) -> "GameStream": ...
    def __next__(self) -> Tuple[str, Game]: ...
    @property
    def failures(self) -> List[Diagnostic]: ...
    @property
    def files(self) -> int: ...
    @property
    def games(self) -> int: ...

def read(
    path: _StrPath,
    *,
    encoding: Optional[str] = None,
    max_nodes: Optional[int] = None,
    max_variations: Optional[int] = None,
    max_bytes: Optional[int] = None,
) -> Collection: ...
def parse(
    data: Union[bytes, bytearray, memoryview, str],
    *,
    name: Optional[str] = None,
    encoding: Optional[str] = None,
    max_nodes: Optional[int] = None,
    max_variations: Optional[int] = None,
) -> Collection: ...
def check(
    path_or_bytes: Union[_StrPath, bytes, bytearray, memoryview],
    rules: Optional[str] = None,
    *,
    ko: Optional[str] = None,
    suicide: Optional[str] = None,
    score: bool = False,
    dead_stones: str = "auto",
    komi: Optional[float] = None,
    handicap_bonus: Optional[float] = None,
    seki_eyes: Optional[str] = None,
    connections: Optional[str] = None,
    ties: str = "draw",
    allow: Sequence[str] = (),
    deny: Sequence[str] = (),
    encoding: Optional[str] = None,
    max_bytes: Optional[int] = None,
    max_nodes: Optional[int] = None,
    max_variations: Optional[int] = None,
    timeout_per_file: Optional[float] = None,
    extensions: Sequence[str] = (),
    hidden: bool = False,
    jobs: Optional[int] = None,
    name: str = "-",
) -> List[Diagnostic]: ...
@overload
def score(
    path_or_game: Game,
    rules: Optional[str] = None,
    dead_stones: str = "auto",
    *,
    ko: Optional[str] = None,
    suicide: Optional[str] = None,
    komi: Optional[float] = None,
    handicap_bonus: Optional[float] = None,
    seki_eyes: Optional[str] = None,
    connections: Optional[str] = None,
    ties: str = "draw",
    variation: Sequence[int] = (),
    encoding: Optional[str] = None,
) -> ScoreResult: ...
@overload
def score(
    path_or_game: _StrPath,
    rules: Optional[str] = None,
    dead_stones: str = "auto",
    *,
    ko: Optional[str] = None,
    suicide: Optional[str] = None,
    komi: Optional[float] = None,
    handicap_bonus: Optional[float] = None,
    seki_eyes: Optional[str] = None,
    connections: Optional[str] = None,
    ties: str = "draw",
    variation: Sequence[int] = (),
    encoding: Optional[str] = None,
) -> List[Optional[ScoreResult]]: ...
def games(
    paths: Union[_StrPath, Iterable[_StrPath]],
    jobs: Optional[int] = None,
    recursive: bool = True,
    *,
    extensions: Sequence[str] = (),
    hidden: bool = False,
    encoding: Optional[str] = None,
    max_bytes: Optional[int] = None,
    max_nodes: Optional[int] = None,
    max_variations: Optional[int] = None,
    shard: Optional[str] = None,
) -> GameStream: ...

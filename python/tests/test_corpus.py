"""kifu against sgfmill on the real archives of ../shared/corpus (skipped
when it is absent)."""

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import kifu
from conftest import corpus_dir, record_files

pytest.importorskip("sgfmill")
from helpers import sgfmill_boards, sgfmill_moves  # noqa: E402

# Games whose boards are compared move by move (the goal: at least 2,000).
BOARD_GAMES = 2500


def sgfmill_main_lines(paths):
    """sgfmill's main line of each file, on every core."""
    workers = max(1, min(4, os.cpu_count() or 1))
    with ProcessPoolExecutor(workers) as pool:
        return list(pool.map(read_main_line, paths, chunksize=256))


def read_main_line(path):
    with open(path, "rb") as f:
        return sgfmill_moves(f.read())


def test_every_kgs_main_line_equals_sgfmill():
    files = record_files(corpus_dir("kgs"))
    ours = {}
    stream = kifu.games(files)
    for path, game in stream:
        assert game.index == 0, f"{path}: more than one game"
        ours[path] = game.moves()
    assert stream.failures == [] and len(ours) == len(files)
    theirs = sgfmill_main_lines(files)
    refused = [p for p, moves in zip(files, theirs) if moves is None]
    assert len(refused) <= 10, refused[:10]
    differ = [str(p) for p, moves in zip(files, theirs) if moves is not None and moves != ours[str(p)]]
    assert differ == [], f"{len(differ)} main lines differ from sgfmill's, e.g. {differ[:5]}"
    assert sum(len(m) for m in ours.values()) > 5_000_000


def test_kgs_boards_equal_sgfmill_after_every_move():
    files = record_files(corpus_dir("kgs"))
    sample = [files[i * len(files) // BOARD_GAMES] for i in range(BOARD_GAMES)]
    compared, moves, stopped = 0, 0, []
    for path, game in kifu.games(sample):
        replay = game.replay(strict=False)
        expected = sgfmill_boards(open(path, "rb").read())
        if not replay.complete:
            stopped.append((path, replay.stopped.code))
            # sgfmill replays what kifu stops at: compare up to the stop.
            if expected is not None:
                expected = expected[: len(replay) + 1]
        if expected is None:
            continue
        assert len(expected) == len(replay) + 1, path
        assert np.array_equal(np.stack(expected), replay.boards), path
        compared += 1
        moves += len(replay)
    assert len(stopped) <= 5, stopped
    assert compared >= 2000 and moves > 300_000, (compared, moves)


def test_the_whole_corpus_reads_and_replays_without_an_exception():
    root = corpus_dir("")
    games = 0
    stream = kifu.games(root)
    for _, game in stream:
        try:
            replay = game.replay(strict=False)
        except ValueError:  # a board size that cannot be used: said, not raised further
            assert game.rules and game.values("SZ")
            continue
        assert replay.boards.shape[0] == len(replay) + 1
        games += 1
    assert games > 45_000 and stream.files > 45_000
    assert {d.code for d in stream.failures if d.severity == "error"} <= {"not-sgf", "empty-file"}

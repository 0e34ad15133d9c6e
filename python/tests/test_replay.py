"""Game.replay(): NumPy boards, moves, colours and captures."""

import numpy as np
import pytest

import kifu
from conftest import FIXTURES

KO = "RU[Japanese]SZ[5]AB[ba][ab][bc]AW[ca][bb][db][cc]"


def replay(sgf, **options):
    return kifu.parse(sgf).games[0].replay(**options)


def test_arrays_have_the_documented_shapes_and_types():
    r = kifu.read(FIXTURES / "example-game.sgf").games[0].replay()
    n = len(r)
    assert n == 29 and r.complete and r.stopped is None and r.rules == "japanese"
    assert (r.boards.dtype, r.boards.shape) == (np.int8, (n + 1, 9, 9))
    assert (r.moves.dtype, r.moves.shape) == (np.int16, (n, 2))
    assert (r.colors.dtype, r.colors.shape) == (np.int8, (n,))
    assert (r.captures.dtype, r.captures.shape) == (np.int16, (n,))
    assert not r.boards[0].any()
    assert r.moves[-1].tolist() == [-1, -1] and r.colors[:4].tolist() == [1, -1, 1, -1]


def test_each_move_lands_where_moves_says_and_captures_are_counted():
    game = kifu.read(FIXTURES / "example-game.sgf").games[0]
    r = game.replay()
    for k, (colour, point) in enumerate(game.moves()):
        assert r.colors[k] == (1 if colour == "B" else -1)
        if point is None:
            assert (r.boards[k + 1] == r.boards[k]).all()
            continue
        x, y = point
        assert tuple(r.moves[k]) == (x, y)
        assert r.boards[k][y, x] == 0 and r.boards[k + 1][y, x] == r.colors[k]
        removed = np.count_nonzero((r.boards[k] == -r.colors[k]) & (r.boards[k + 1] == 0))
        assert removed == r.captures[k]
    assert r.captures.sum() >= 1


def test_rectangular_boards_are_height_by_width():
    r = replay("(;SZ[7:3];B[fa];W[ac])")
    assert r.boards.shape == (3, 3, 7)
    assert r.boards[1][0, 5] == 1 and r.boards[2][2, 0] == -1


def test_setup_and_the_handicap_are_on_the_first_board():
    r = replay("(;SZ[19]HA[2]AB[pd][dp]RU[Japanese];W[qp])")
    assert np.argwhere(r.boards[0] == 1).tolist() == [[3, 15], [15, 3]]
    # HA with no stones (Fox), White first: the standard placement.
    r = replay("(;SZ[19]HA[3]RU[Japanese];W[qc];B[qo])")
    assert np.count_nonzero(r.boards[0] == 1) == 3


def test_an_illegal_move_raises_with_the_diagnostic_and_the_replay_before_it():
    with pytest.raises(kifu.IllegalMoveError) as caught:
        replay(f"(;{KO};B[cb];W[bb];B[ee])")
    error = caught.value
    assert isinstance(error, ValueError)
    d = error.diagnostic
    assert (d.code, d.severity, d.move, d.color, d.point, d.game, d.line) == ("ko", "error", 2, "W", "bb", 0, 1)
    assert len(error.replay) == 1 and error.replay.boards.shape == (2, 5, 5)
    assert "ko" in str(error)
    partial = replay(f"(;{KO};B[cb];W[bb];B[ee])", strict=False)
    assert not partial.complete and partial.stopped.code == "ko" and len(partial) == 1
    for bad, code in [("(;SZ[9];B[ee];W[ee])", "occupied-point"), ("(;SZ[9];B[ee];B[cc])", "double-move"), ("(;SZ[9];B[ee];W[1a])", "invalid-value")]:
        assert replay(bad, strict=False).stopped.code == code


def test_rules_decide_what_is_illegal():
    suicide = "(;SZ[3]AW[aa]AB[ba][bb][ac]{};W[ab])"
    assert replay(suicide.format("RU[Japanese]"), strict=False).stopped.code == "suicide"
    r = replay(suicide.format("RU[Tromp-Taylor]"))
    assert r.complete and r.rules == "tromp-taylor"
    assert r.boards[1][0, 0] == r.boards[1][1, 0] == 0 and r.captures.tolist() == [0]
    assert replay(suicide.format("RU[Japanese]"), rules="tromp-taylor").complete
    assert replay(suicide.format("RU[Japanese]"), suicide="allowed").complete
    # KO[] says the record executed the move anyway.
    assert replay(f"(;{KO};B[cb];W[bb]KO[];B[ee])").complete


def test_variations_replay_too():
    game = kifu.read(FIXTURES / "example-game.sgf").games[0]
    r = game.replay([1])
    assert len(r) == len(game.moves([1])) == 9
    with pytest.raises(IndexError):
        game.replay([5])
    with pytest.raises(ValueError):
        kifu.parse("(;SZ[99];B[aa])").games[0].replay()


def test_boards_match_sgfmill_on_the_fixtures():
    pytest.importorskip("sgfmill")
    from helpers import sgfmill_boards

    compared = 0
    for path in sorted(FIXTURES.rglob("*.sgf")):
        data = path.read_bytes()
        if data.lstrip().startswith(b";"):
            # A tree that lost its "(": sgfmill drops the root, kifu keeps it.
            continue
        expected = sgfmill_boards(data)
        if expected is None:
            continue
        game = kifu.parse(data).games[0]
        r = game.replay(strict=False)
        if not r.complete:
            continue
        if game.handicap and not expected[0].any() and r.boards[0].any():
            # Fox's HA[n] without stones: kifu places the standard stones, sgfmill none.
            continue
        assert len(expected) == len(r) + 1, path
        assert (np.stack(expected) == r.boards).all(), path
        compared += 1
    assert compared >= 20

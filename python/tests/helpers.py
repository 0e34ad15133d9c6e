"""sgfmill, read the way the kifu tests compare with it."""

import itertools

import numpy as np

try:
    from sgfmill import boards, sgf, sgf_moves
except ImportError:  # the tests that need it skip
    sgf = None

COLOUR = {"b": "B", "w": "W"}
STONE = {None: 0, "b": 1, "w": -1}


def sgfmill_game(data):
    """sgfmill's parse of a record, or None when it refuses it."""
    try:
        return sgf.Sgf_game.from_bytes(data)
    except (ValueError, IndexError):
        return None


def sgfmill_moves(data):
    """sgfmill's main line in kifu's form: ("B", (x, y)) or ("B", None), or
    None when sgfmill refuses the record."""
    game = sgfmill_game(data)
    if game is None:
        return None
    try:
        _, plays = sgf_moves.get_setup_and_moves(game)
    except ValueError:
        return None
    size = game.get_size()
    return [(COLOUR[c], None if mv is None else (mv[1], size - 1 - mv[0])) for c, mv in plays]


def board_array(board):
    """An sgfmill board as kifu lays boards out: rows from the top."""
    side = board.side
    cells = np.fromiter(map(STONE.__getitem__, itertools.chain.from_iterable(board.board)), dtype=np.int8, count=side * side)
    return cells.reshape(side, side)[::-1]


def sgfmill_boards(data):
    """The board before each main-line move and after the last, replayed by
    sgfmill; None when it refuses the record or a move in it."""
    game = sgfmill_game(data)
    if game is None:
        return None
    try:
        board, plays = sgf_moves.get_setup_and_moves(game)
    except ValueError:
        return None
    out = [board_array(board)]
    for colour, move in plays:
        if move is not None:
            try:
                board.play(move[0], move[1], colour)
            except ValueError:
                return None
        out.append(board_array(board))
    return out

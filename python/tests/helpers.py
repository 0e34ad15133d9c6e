"""sgfmill, read the way the kifu tests compare with it."""

import itertools

import numpy as np

try:
    from sgfmill import sgf, sgf_moves
except ImportError:  # the tests that need it skip
    sgf = None

COLOUR = {"b": "B", "w": "W"}
STONE = {None: 0, "b": 1, "w": -1}


def setup_and_moves(data):
    """sgfmill's reading of a record: (size, board set up, plays), or None
    when it refuses the record."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
        board, plays = sgf_moves.get_setup_and_moves(game)
    except (ValueError, IndexError):
        return None
    return game.get_size(), board, plays


def sgfmill_moves(data):
    """sgfmill's main line in kifu's form: ("B", (x, y)) or ("B", None), or
    None when sgfmill refuses the record."""
    read = setup_and_moves(data)
    if read is None:
        return None
    size, _, plays = read
    return [(COLOUR[c], None if mv is None else (mv[1], size - 1 - mv[0])) for c, mv in plays]


def board_array(board):
    """An sgfmill board as kifu lays boards out: rows from the top."""
    side = board.side
    cells = np.fromiter(map(STONE.__getitem__, itertools.chain.from_iterable(board.board)), dtype=np.int8, count=side * side)
    return cells.reshape(side, side)[::-1]


def sgfmill_boards(data):
    """The board before each main-line move and after the last, replayed by
    sgfmill; None when it refuses the record or a move in it."""
    read = setup_and_moves(data)
    if read is None:
        return None
    _, board, plays = read
    out = [board_array(board)]
    for colour, move in plays:
        if move is not None:
            try:
                board.play(move[0], move[1], colour)
            except ValueError:
                return None
        out.append(board_array(board))
    return out

"""Reading records: Collection, Game and Node on the bundled fixtures."""

import pathlib
import subprocess
import sys

import pytest

import kifu
from conftest import FIXTURES

EXAMPLE = FIXTURES / "example-game.sgf"


def test_read_gives_the_games_and_their_game_info():
    collection = kifu.read(EXAMPLE)
    assert (len(collection), collection.file, collection.encoding) == (1, str(EXAMPLE), "UTF-8")
    assert collection.diagnostics == []
    game = collection.games[0]
    assert game is not None and collection[0].index == 0 and game.file == str(EXAMPLE)
    assert game.size == (9, 9)
    assert (game.komi, game.handicap, game.rules, game.result) == (6.5, None, "japanese", "B+2.5")
    assert game.players == {"black": "Honinbo Shusaku", "white": "Gennan Inseki", "black_rank": "7d", "white_rank": "8d"}
    assert game.root["PB"] == "Honinbo Shusaku" and game.root["SZ"] == "9"
    assert game.values("PB") == ["Honinbo Shusaku"] and game.values("XX") == []


def test_moves_are_x_from_the_left_y_from_the_top_and_none_for_a_pass():
    game = kifu.read(EXAMPLE).games[0]
    moves = game.moves()
    assert moves[:3] == [("B", (4, 4)), ("W", (6, 2)), ("B", (2, 6))]  # ee, gc, cg
    assert moves[-2:] == [("W", None), ("B", None)]
    assert len(moves) == 29


def test_variations_are_reachable_by_path_and_by_node():
    game = kifu.read(EXAMPLE).games[0]
    assert game.variations() == [[], [1]]
    variation = game.moves([1])
    assert variation[5:] == [("W", (2, 4)), ("B", (3, 4)), ("W", (2, 3)), ("B", (3, 3))]
    with pytest.raises(IndexError):
        game.moves([2])
    node = game.root_node
    assert node.parent is None and node.move is None and node.get("PB") == "Honinbo Shusaku"
    for _ in range(5):
        (node,) = node.children
    branches = node.children
    assert [b.move for b in branches] == [("W", (5, 4)), ("W", (2, 4))]
    assert branches[1].properties == {"W": ["ce"], "C": ["A variation: White invades."]}
    assert branches[1].parent.move == ("B", (2, 2))
    assert (branches[0].line, branches[0].column) == (6, 2)


def test_parse_takes_bytes_and_text():
    text = "(;SZ[9]KM[7]RU[Chinese]PB[Lee];B[aa];W[ii];B[tt])"
    from_text = kifu.parse(text, name="x.sgf")
    from_bytes = kifu.parse(text.encode())
    assert from_text.file == "x.sgf" and from_bytes.file is None
    for collection in (from_text, from_bytes, kifu.parse(bytearray(text.encode()))):
        game = collection.games[0]
        assert game.moves() == [("B", (0, 0)), ("W", (8, 8)), ("B", None)]
        assert (game.komi, game.rules) == (7.0, "chinese")


def test_charsets_are_decoded_as_declared_or_detected():
    collection = kifu.read(FIXTURES / "charset" / "gb2312-declared.sgf")
    assert collection.encoding in ("GBK", "gb18030")
    assert all(ord(c) < 0xFFFD for c in "".join(collection.games[0].root.values()))
    # Text given as str is already decoded: its CA[] is not applied again.
    text = (FIXTURES / "charset" / "latin1-declared.sgf").read_bytes().decode("latin-1")
    assert kifu.parse(text).games[0].root == kifu.read(FIXTURES / "charset" / "latin1-declared.sgf").games[0].root


def test_problems_reading_a_file_are_diagnostics_of_the_collection_and_its_game():
    collection = kifu.read(FIXTURES / "syntax" / "collection-with-broken-game.sgf")
    assert len(collection.games) == 2
    codes = [d.code for d in collection.diagnostics]
    assert codes and all(d.file == collection.file for d in collection.diagnostics)
    assert [d.code for d in collection.games[0].diagnostics] == codes
    assert collection.games[1].diagnostics == []
    for name, code in [("not-sgf.sgf", "not-sgf"), ("empty-file.sgf", "empty-file")]:
        collection = kifu.read(FIXTURES / "syntax" / name)
        assert collection.games == [] and [d.code for d in collection.diagnostics] == [code]
    with pytest.raises(OSError):
        kifu.read(FIXTURES / "no-such-file.sgf")
    too_big = kifu.read(EXAMPLE, max_bytes=10)
    assert too_big.games == [] and [d.code for d in too_big.diagnostics] == ["limit-exceeded"]


def test_game_info_as_score_reads_it():
    fox = kifu.parse("(;SZ[19]RU[Chinese]KM[375]RE[B+2.75]HA[2]AB[pd][dp];W[qc])").games[0]
    assert (fox.komi, fox.result, fox.handicap) == (7.5, "B+5.5", 2)
    bare = kifu.parse("(;RE[White resigns.])").games[0]
    assert (bare.komi, bare.rules, bare.result, bare.size) == (None, "japanese", "B+R", (19, 19))
    assert kifu.parse("(;RE[nonsense])").games[0].result is None
    with pytest.raises(ValueError):
        kifu.parse("(;SZ[x])").games[0].size
    with pytest.raises(ValueError, match="1a"):
        kifu.parse("(;SZ[9];B[1a])").games[0].moves()


def test_games_write_back_as_sgf():
    game = kifu.read(EXAMPLE).games[0]
    again = kifu.parse(game.to_sgf()).games[0]
    assert again.moves() == game.moves() and again.root == game.root and again.variations() == game.variations()


def test_objects_describe_themselves():
    game = kifu.read(EXAMPLE).games[0]
    assert "Honinbo Shusaku vs Gennan Inseki" in repr(game)
    assert "1 games" in repr(kifu.read(EXAMPLE))
    assert "B[ee]" in repr(game.root_node.children[0])
    for thing in (kifu, kifu.read, kifu.games, kifu.check, kifu.score, kifu.Game, kifu.Game.replay, kifu.Replay, kifu.Diagnostic):
        assert thing.__doc__ and len(thing.__doc__) > 40, thing


def test_the_package_ships_type_stubs_that_match_the_module():
    package = pathlib.Path(kifu.__file__).parent
    assert (package / "py.typed").is_file() and (package / "_kifu.pyi").is_file()
    pytest.importorskip("mypy")
    stubtest = subprocess.run([sys.executable, "-m", "mypy.stubtest", "kifu._kifu", "--ignore-disjoint-bases"], capture_output=True, text=True)
    assert stubtest.returncode == 0, stubtest.stdout + stubtest.stderr

"""`kifu export --to npz`: loads with numpy.load, agrees with replay()."""

import numpy as np
import pytest

import kifu
from conftest import FIXTURES, corpus_dir, record_files

COLUMNS = {
    "boards", "moves", "colors", "captures", "board_offset", "move_offset", "move_count",
    "file", "game", "komi", "handicap", "rules", "result", "complete", "stopped",
}


def export(cli, tmp_path, *args):
    out = tmp_path / "out.npz"
    status, _, stderr = cli("export", "--to", "npz", "-o", out, *args)
    assert status in (0, 1), stderr
    return np.load(out), stderr


def assert_agrees_with_replay(data, games):
    """Each exported game against Game.replay() of the same game, in order."""
    assert set(data.files) == COLUMNS
    assert len(data["move_count"]) == len(games)
    for g, (path, game) in enumerate(games):
        r = game.replay(strict=False)
        n, b, m = data["move_count"][g], data["board_offset"][g], data["move_offset"][g]
        assert (data["file"][g], data["game"][g], n) == (path, game.index, len(r)), path
        assert (data["boards"][b : b + n + 1] == r.boards).all(), path
        assert (data["moves"][m : m + n] == r.moves).all(), path
        assert (data["colors"][m : m + n] == r.colors).all(), path
        assert (data["captures"][m : m + n] == r.captures).all(), path
        assert data["rules"][g] == r.rules and data["result"][g] == (game.result or "")
        assert data["complete"][g] == r.complete and data["stopped"][g] == (r.stopped.code if r.stopped else "")
        komi = data["komi"][g]
        assert (np.isnan(komi) and game.komi is None) or komi == game.komi
        assert data["handicap"][g] == (game.handicap or 0)
    assert data["board_offset"][-1] + data["move_count"][-1] + 1 == len(data["boards"])


def test_the_fixtures_export_as_replay_gives_them(cli, tmp_path):
    data, stderr = export(cli, tmp_path, "--board-size", "9", FIXTURES)
    games = [(p, g) for p, g in kifu.games(FIXTURES) if g.size == (9, 9)]
    assert data["boards"].shape[1:] == (9, 9) and data["boards"].dtype == np.int8
    assert_agrees_with_replay(data, games)
    assert not data["complete"].all() and "stopped at an illegal move" in stderr
    compressed, _ = export(cli, tmp_path, "--board-size", "9", "--compress", FIXTURES)
    for k in data.files:
        assert np.array_equal(compressed[k], data[k], equal_nan=data[k].dtype.kind == "f"), k


def test_the_output_is_complete_or_absent(cli, tmp_path):
    game = tmp_path / "game.sgf"
    game.write_bytes((FIXTURES / "example-game.sgf").read_bytes())
    status, _, stderr = cli("export", "--to", "npz", "--board-size", "9", "-o", game, game)
    assert status == 2 and "refusing" in stderr
    assert game.read_bytes() == (FIXTURES / "example-game.sgf").read_bytes()
    status, _, _ = cli("export", "--to", "npz", "-o", tmp_path / "none" / "out.npz", "--board-size", "nine", game)
    assert status == 2 and not (tmp_path / "none" / "out.npz").exists()
    export(cli, tmp_path, "--board-size", "9", game)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.sgf", "out.npz"]


def test_kgs_games_export_as_replay_gives_them(cli, tmp_path):
    files = record_files(corpus_dir("kgs"))
    sample = [files[i * len(files) // 400] for i in range(400)]
    data, _ = export(cli, tmp_path, *sample)
    assert_agrees_with_replay(data, [(p, g) for p, g in kifu.games(sample) if g.size == (19, 19)])
    assert len(data["boards"]) > 400 * 100


def test_shards_split_the_export(cli, tmp_path):
    whole, _ = export(cli, tmp_path, "--board-size", "9", FIXTURES / "moves")
    parts = []
    for i in (1, 2):
        part, _ = export(cli, tmp_path, "--board-size", "9", "--shard", f"{i}/2", FIXTURES / "moves")
        parts.append(set(part["file"]))
    assert parts[0] | parts[1] == set(whole["file"]) and not parts[0] & parts[1]

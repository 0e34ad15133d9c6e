"""kifu.check and kifu.score against the command line's JSON output."""

import pytest

import kifu
from conftest import FIXTURES, fixture_files, json_lines


def cli_diagnostics(cli, *args):
    status, lines, stderr = cli("check", "--format", "jsonl", "--no-config", *args)
    assert status in (0, 1, 2), stderr
    return [d for d in json_lines(lines) if "summary" not in d]


@pytest.mark.parametrize("path", fixture_files(), ids=lambda p: str(p.relative_to(FIXTURES)))
def test_diagnostics_equal_the_cli_json_lines(cli, path):
    assert [d.to_dict() for d in kifu.check(path)] == cli_diagnostics(cli, path)


def test_a_whole_folder_equals_the_cli(cli):
    expected = cli_diagnostics(cli, FIXTURES)
    got = kifu.check(FIXTURES)
    assert [d.to_dict() for d in got] == expected
    assert {"ko", "not-sgf", "empty-file", "invalid-bytes"} <= {d.code for d in got}
    assert [d.to_dict() for d in kifu.check(FIXTURES, jobs=1)] == expected


def test_games_seen_twice_are_duplicates_as_in_the_cli(cli, tmp_path):
    game = (FIXTURES / "example-game.sgf").read_bytes()
    (tmp_path / "a.sgf").write_bytes(game)
    (tmp_path / "b.sgf").write_bytes(game.replace(b"Shusaku", b"Someone"))
    got = [d.to_dict() for d in kifu.check(tmp_path)]
    assert got == cli_diagnostics(cli, tmp_path)
    assert [d["code"] for d in got if d["file"].endswith("b.sgf")] == ["duplicate-game"]
    assert kifu.check(tmp_path, allow=["duplicate-game"]) == []


def test_options_are_the_cli_flags(cli):
    for flags, options in [
        (["--rules", "chinese", "--deny", "warnings"], dict(rules="chinese", deny=["warnings"])),
        (["--allow", "unknown-rules", "--ko", "situational", "--suicide", "allowed"], dict(allow=["unknown-rules"], ko="situational", suicide="allowed")),
        (["--score", "--dead-stones", "markup"], dict(score=True, dead_stones="markup")),
    ]:
        for folder in ("moves", "score"):
            got = [d.to_dict() for d in kifu.check(FIXTURES / folder, **options)]
            assert got == cli_diagnostics(cli, *flags, FIXTURES / folder), (flags, folder)
    with pytest.raises(ValueError, match="nonsense"):
        kifu.check(FIXTURES, rules="nonsense")
    with pytest.raises(ValueError, match="no-such-code"):
        kifu.check(FIXTURES, deny=["no-such-code"])


def test_bytes_are_checked_as_standard_input_is():
    path = FIXTURES / "moves" / "ko-retake-immediate.sgf"
    from_file = [d.to_dict() for d in kifu.check(path)]
    from_bytes = [d.to_dict() for d in kifu.check(path.read_bytes())]
    assert [dict(d, file="-") for d in from_file] == from_bytes
    (d,) = kifu.check(path.read_bytes(), name="mine.sgf")
    assert (d.file, d.code, d.severity, d.move, d.color, d.point, d.variation, d.game) == ("mine.sgf", "ko", "error", 10, "W", "dd", [], 0)
    assert str(d).startswith("mine.sgf:3:56: error[ko]: ")


def test_an_unreadable_path_is_a_diagnostic_not_an_exception(cli):
    missing = FIXTURES / "no-such-file.sgf"
    (d,) = kifu.check(missing)
    assert (d.code, d.severity, d.line, d.column) == ("io-error", "error", 1, 1)
    assert [d.to_dict()] == cli_diagnostics(cli, missing)


@pytest.mark.parametrize("path", sorted((FIXTURES / "score").glob("*.sgf")), ids=lambda p: p.name)
def test_scores_equal_the_cli_json(cli, path):
    status, lines, stderr = cli("score", "--format", "json", path)
    expected = json_lines(lines)
    assert kifu.score(path) == expected, stderr
    assert all("notes" in doc for doc in expected)
    games = kifu.read(path).games
    assert [kifu.score(game) for game in games] == expected


def test_score_options_are_the_cli_flags(cli):
    path = FIXTURES / "score" / "ties-to-white.sgf"
    for flags, options in [
        (["--ties", "white", "--komi", "0.5"], dict(ties="white", komi=0.5)),
        (["--rules", "chinese", "--dead-stones", "none"], dict(rules="chinese", dead_stones="none")),
        (["--seki-eyes", "count", "--handicap-bonus", "2"], dict(seki_eyes="count", handicap_bonus=2.0)),
    ]:
        _, lines, _ = cli("score", "--format", "json", *flags, path)
        assert kifu.score(path, **options) == json_lines(lines), flags
    kgs = FIXTURES / "score" / "kgs-one-dame-connection.sgf"
    results = set()
    for flags, options in [
        (["--dead-stones", "none"], dict(dead_stones="none")),
        (["--dead-stones", "none", "--connections", "every"], dict(dead_stones="none", connections="every")),
    ]:
        _, lines, _ = cli("score", "--format", "json", *flags, kgs)
        assert kifu.score(kgs, **options) == json_lines(lines), flags
        results.add(json_lines(lines)[0]["result"])
    assert results == {"B+0.5", "W+0.5"}
    with pytest.raises(ValueError, match="connections"):
        kifu.score(kgs, connections="some")
    with pytest.raises(ValueError, match="dead_stones"):
        kifu.score(path, dead_stones="dd,1")
    with pytest.raises(ValueError):
        kifu.score(kifu.parse("(;SZ[99])").games[0])
    assert kifu.score(FIXTURES / "syntax" / "not-sgf.sgf") == []

"""kifu.games: files, folders and archives, on Rust threads, in order."""

import gc
import io
import logging
import pathlib
import tarfile
import threading
import zipfile

import kifu
from conftest import FIXTURES, record_files

EXAMPLE = (FIXTURES / "example-game.sgf").read_bytes()


def test_every_game_of_every_file_in_walk_order():
    stream = kifu.games(FIXTURES)
    seen = [(path, game.index) for path, game in stream]
    expected = []
    for path in record_files(FIXTURES):
        expected += [(str(path), i) for i in range(len(kifu.read(path).games))]
    assert seen == expected
    assert (stream.files, stream.games) == (len(record_files(FIXTURES)), len(seen))


def test_the_order_does_not_depend_on_the_threads():
    def names(jobs):
        return [(path, game.index, game.moves()) for path, game in kifu.games([FIXTURES / "moves", FIXTURES], jobs=jobs)]

    assert names(1) == names(2) == names(4)


def test_bad_files_are_diagnostics_never_exceptions(caplog, tmp_path):
    (tmp_path / "good.sgf").write_bytes(EXAMPLE)
    (tmp_path / "binary.sgf").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "empty.sgf").write_bytes(b"")
    (tmp_path / "truncated.sgf").write_bytes(EXAMPLE[:100])
    with caplog.at_level(logging.WARNING, logger="kifu"):
        stream = kifu.games([tmp_path, tmp_path / "missing.sgf"])
        games = list(stream)
    assert [p.rsplit("/", 1)[-1] for p, _ in games] == ["good.sgf", "truncated.sgf"]
    truncated = games[1][1]
    assert "unterminated-value" in {d.code for d in truncated.diagnostics}
    failures = {(d.file.rsplit("/", 1)[-1], d.code) for d in stream.failures if d.severity == "error"}
    assert failures == {("binary.sgf", "not-sgf"), ("empty.sgf", "empty-file"), ("missing.sgf", "io-error")}
    assert len([r for r in caplog.records if r.name == "kifu"]) == 3


def test_folders_can_be_read_without_their_subfolders():
    top = {path for path, _ in kifu.games(FIXTURES, recursive=False)}
    assert top == {str(FIXTURES / "example-game.sgf")}
    assert len({path for path, _ in kifu.games(FIXTURES)}) > 50


def test_archives_are_read_in_place(tmp_path):
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as z:
        z.writestr("2020/a.sgf", EXAMPLE)
        z.writestr("notes.txt", b"not a game")
    with tarfile.open(tmp_path / "games.tar.gz", "w:gz") as t:
        info = tarfile.TarInfo("b.SGF")
        info.size = len(EXAMPLE)
        t.addfile(info, io.BytesIO(EXAMPLE))
    paths = [path for path, _ in kifu.games(tmp_path)]
    assert paths == [f"{tmp_path}/games.tar.gz!b.SGF", f"{tmp_path}/games.zip!2020/a.sgf"]


def test_options_are_the_cli_flags(tmp_path):
    (tmp_path / "a.kifu").write_bytes(EXAMPLE)
    (tmp_path / ".hidden.sgf").write_bytes(EXAMPLE)
    assert list(kifu.games(tmp_path)) == []
    assert len(list(kifu.games(tmp_path, extensions=["kifu"]))) == 1
    assert len(list(kifu.games(tmp_path, hidden=True))) == 1
    files = [path for path, _ in kifu.games(FIXTURES / "moves")]
    shards = [[path for path, _ in kifu.games(FIXTURES / "moves", shard=f"{i}/3")] for i in (1, 2, 3)]
    assert sorted(sum(shards, [])) == sorted(files) and all(shards)


def test_a_stream_let_go_stops_its_threads():
    before = threading.active_count()
    for _ in range(20):
        stream = kifu.games([FIXTURES] * 50, jobs=2)
        next(stream)
        del stream
    gc.collect()
    for _ in range(200):
        if threading.active_count() <= before:
            break
        threading.Event().wait(0.01)
    # Rust threads are not Python threads: what is checked is that the
    # process goes on and new streams still work.
    assert len(list(kifu.games(FIXTURES / "moves"))) == len(record_files(FIXTURES / "moves"))


def test_memory_stays_flat_as_the_files_grow():
    import resource

    def peak_after(repeats):
        for _, game in kifu.games([FIXTURES] * repeats, jobs=2):
            game.replay(strict=False)
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB

    peak_after(20)  # allocator and thread pools warmed
    small = peak_after(20)
    large = peak_after(400)  # about 28,000 files
    assert large - small < 20_000, (small, large)


def test_the_other_record_formats_are_read_and_walked():
    folder = FIXTURES / "formats"
    read = {str(path): [game.moves() for game in kifu.read(path).games] for path in record_files(folder)}
    assert {pathlib.Path(p).suffix for p, games in read.items() if games} >= {".gib", ".ngf", ".ugi"}
    walked = {}
    for path, game in kifu.games(folder):
        walked.setdefault(path, []).append(game.moves())
    assert walked == {p: games for p, games in read.items() if games}
    gib = folder / "gib-gbk-names-handicap-3.gib"
    (game,) = kifu.parse(gib.read_bytes(), name=gib.name).games
    assert game.moves() == read[str(gib)][0] and game.handicap == 3

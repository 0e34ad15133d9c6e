"""Broken input gives diagnostics or a documented exception, never a crash."""

import random

import pytest

import kifu
from conftest import fixture_files


def mutations(seed, count):
    """Seeded byte mutations of the fixtures: flips, cuts, insertions."""
    rng = random.Random(seed)
    sources = [p.read_bytes() for p in fixture_files()]
    sources = [s for s in sources if s]
    for _ in range(count):
        data = bytearray(rng.choice(sources))
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data) + 1)
            kind = rng.randrange(3)
            if kind == 0 and i < len(data):
                data[i] = rng.randrange(256)
            elif kind == 1:
                del data[i : i + rng.randint(1, 20)]
            else:
                data[i:i] = rng.choice([b"(", b")", b";", b"[", b"]", b"\\", b"B[", b"AB[aa:ss]", b"SZ[52]", b"\xff\xfe"])
        yield bytes(data)


@pytest.mark.parametrize("seed", range(4))
def test_mutated_records_never_crash_the_interpreter(seed):
    for data in mutations(seed, 150):
        collection = kifu.parse(data)
        assert all(d.line >= 1 and d.column >= 1 for d in collection.diagnostics)
        for game in collection.games:
            for call in (game.moves, lambda: game.replay(strict=False), lambda: kifu.score(game), game.variations):
                try:
                    call()
                except ValueError:  # unreadable moves, unusable board sizes: said, not crashed
                    pass
            game.root, game.komi, game.result, game.players, game.to_sgf()
        for d in kifu.check(data, score=True):
            assert d.code and d.severity in ("error", "warning", "info")

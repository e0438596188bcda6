"""The hint is the true optimum: compared with a search of every chain."""

from __future__ import annotations

import hashlib
import itertools
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from tests.chain2248.helpers import CLASSIC, board_with, state_with
from tests.chain2248.reference import brute_force_chain
from twofold.variants.chain2248.board import COLS, ROWS
from twofold.variants.chain2248.hint import best_chain, chain_key, cover, levels, paths
from twofold.variants.chain2248.hint.bits import TOUCH, bits, component
from twofold.variants.chain2248.rules import check_chain

#: tiles too big to join anything, to wall a small playing area off
WALL = [[2 ** (20 + r * COLS + c) for c in range(COLS)] for r in range(ROWS)]


def window_board(rng: random.Random) -> list[list[int]]:
    """A small random area of small tiles (dense, many chains) inside a wall."""
    height, width = rng.choice([(3, 3), (2, 4), (3, 4), (4, 3), (2, 5)])
    top, left = rng.randint(0, ROWS - height), rng.randint(0, COLS - width)
    k = rng.choice([1, 2, 3, 4])
    board = [row[:] for row in WALL]
    for r in range(top, top + height):
        for c in range(left, left + width):
            board[r][c] = 2 ** rng.randint(1, k)
    return board


def sparse_board(rng: random.Random) -> list[list[int]]:
    """A whole board of many values: few equal neighbours, chains up several levels."""
    k = rng.choice([6, 7, 8])
    return [[2 ** rng.randint(1, k) for _ in range(COLS)] for _ in range(ROWS)]


def assert_matches_brute_force(board: list[list[int]]) -> None:
    hint = best_chain(board)
    brute = brute_force_chain(board)
    assert chain_key(board, hint) == chain_key(board, brute), board
    if hint is not None:
        check_chain(board, list(hint))


@pytest.mark.parametrize("seed", range(4))
def test_hint_matches_brute_force_on_dense_small_areas(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(40):
        assert_matches_brute_force(window_board(rng))


@pytest.mark.parametrize("seed", range(4))
def test_hint_matches_brute_force_on_sparse_boards(seed: int) -> None:
    rng = random.Random(100 + seed)
    for _ in range(60):
        assert_matches_brute_force(sparse_board(rng))


def test_hint_on_a_stuck_board_is_none() -> None:
    assert best_chain(board_with({})) is None


def test_all_equal_tiles_make_one_chain_of_40() -> None:
    board = [[2] * COLS for _ in range(ROWS)]
    hint = best_chain(board)
    assert hint is not None
    check_chain(board, list(hint))
    assert chain_key(board, hint) == (128, 40)


def test_ladder_of_rows_climbs_every_row() -> None:
    board = [[2 ** (ROWS - r)] * COLS for r in range(ROWS)]
    hint = best_chain(board)
    assert hint is not None
    check_chain(board, list(hint))
    # 5 x (2 + 4 + ... + 256) = 2550, rounded up to 4096, through all 40 tiles
    assert chain_key(board, hint) == (4096, 40)


def test_checkerboard_is_legal_and_beats_any_one_value() -> None:
    board = [[2 if (r + c) % 2 else 4 for c in range(COLS)] for r in range(ROWS)]
    hint = best_chain(board)
    assert hint is not None
    check_chain(board, list(hint))
    value, length = chain_key(board, hint)
    # twenty 4s touch only diagonally: a path alternates rows, so at most 17 of them
    assert value == 128 and length >= 17


def test_prefers_the_bigger_tile_then_the_longer_chain() -> None:
    # three 2s (-> 8) versus two 4s (-> 8): equal tiles, the longer chain wins
    state = state_with({(7, 0): 2, (7, 1): 2, (7, 2): 2, (5, 3): 4, (5, 4): 4})
    hint = CLASSIC.rules.hint(state)
    assert hint is not None and len(hint) == 3
    # a 2 2 4 ladder (-> 8) and two 8s (-> 16): the bigger tile wins though shorter
    state = state_with({(7, 0): 2, (7, 1): 2, (7, 2): 4, (3, 3): 8, (3, 4): 8})
    assert CLASSIC.rules.hint(state) in (((3, 3), (3, 4)), ((3, 4), (3, 3)))


HASH_SEEDS = ("0", "1", "2248", "4294967295")
#: a separate process's hints, through the mode contract, for the boards read from stdin
HINTS_IN_A_PROCESS = """
import json, sys
from twofold.core.plugins import registry
rules = registry().mode("2248").rules
hints = [rules.hint(rules.from_position({"board": b}, "7K3M9QXP")) for b in json.load(sys.stdin)]
print(json.dumps(hints))
"""


def test_the_hint_is_the_same_in_every_process_whatever_its_hash_seed() -> None:
    # many boards tie: the chain chosen among equals must not follow str or set hashing
    rng = random.Random(7)
    boards = [[[2 ** rng.randint(1, 3) for _ in range(COLS)] for _ in range(ROWS)]]
    boards += [window_board(rng) for _ in range(12)] + [sparse_board(rng) for _ in range(12)]
    boards.append([[2] * COLS for _ in range(ROWS)])
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", HINTS_IN_A_PROCESS],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=dict(os.environ, PYTHONHASHSEED=seed),
        )
        for seed in HASH_SEEDS
    ]
    answers = [json.loads(run.communicate(json.dumps(boards), timeout=120)[0]) for run in runs]
    assert all(run.returncode == 0 for run in runs)
    rules = CLASSIC.rules
    here = [rules.hint(rules.from_position({"board": b}, "7K3M9QXP")) for b in boards]
    assert any(here), "no board has a hint: the test would prove nothing"
    for seed, answer in zip(HASH_SEEDS, answers, strict=True):
        assert [tuple(map(tuple, h)) if h else h for h in answer] == here, seed


#: ragged boards of mostly 2s (benchmarks/bench_2248_hint.py, ragged_boards(3000)): the
#: 20 slowest for the search, then every hundredth. Each is 40 exponents in reading
#: order, with the (tile, length) the exact hint found before its search was changed.
RAGGED_PINS = [
    ("1111131112111111213123113111111322113111", 128, 33),
    ("1111311111111113111121131111111111121112", 128, 36),
    ("1132112111113211131113112311311312113131", 128, 30),
    ("1121111111111111311311213113111111121111", 128, 35),
    ("3111313212112111121111111111111321212111", 128, 33),
    ("1311131221131133112111113111131111211313", 128, 33),
    ("1111111121111111111113111113111321111111", 128, 39),
    ("1313221211131111131233111131121111112111", 128, 32),
    ("1311111121111111211111131111111211313232", 128, 34),
    ("1131111112113111111121111312111111111121", 128, 35),
    ("1111111111111111311111111111131111111331", 128, 36),
    ("1132112212113121111122111113123222111113", 128, 25),
    ("2121111311113132111321111131313122131211", 128, 30),
    ("2121112111311111111131132131222132113111", 128, 32),
    ("1111113121111111211111111133111133311131", 64, 31),
    ("1112213211131113311111111111313122111212", 128, 30),
    ("1112213323121111111321123131311113331311", 128, 27),
    ("2121123211113121113221133211112231121312", 128, 26),
    ("1212113123111111233112111211112111312211", 128, 31),
    ("1131111311231323111111111111111111111211", 128, 33),
    ("1213111121111131112111131232111111113121", 128, 30),
    ("1311112111112113113111111111233111131131", 128, 33),
    ("2111112111111112311113111111311121211113", 128, 34),
    ("1211111131311113221331323111211131312131", 128, 20),
    ("1313111213213311112111111221111112112132", 128, 30),
    ("1111313331111111213112231113331221113122", 128, 27),
    ("1211312111111111121111312111111111121111", 128, 35),
    ("1121231113131211232121111111111113111321", 128, 31),
    ("1123213121231131311221121111131112131312", 128, 28),
    ("1111331113111231111231132312211111121231", 128, 33),
    ("3111112111111111111113133311111112311123", 128, 34),
    ("1211121131111121311331111121231131112131", 128, 30),
    ("1113112123111233111113123311111123121223", 128, 27),
    ("1213212131131211231311111111111123112211", 128, 26),
    ("1112131121131312111321113111112121111312", 128, 32),
    ("1211122321311111111112123111111211211322", 128, 29),
    ("1131111233113111112231323112133121132111", 128, 29),
    ("1111111211311111131121111111111323111112", 128, 34),
    ("1212111111111111111111112111211111111112", 128, 37),
    ("1111211111111111121111321211123221311112", 128, 33),
    ("1111111121111121113111112211111311111111", 128, 37),
    ("1121331111331112112111321312111113211313", 128, 29),
    ("1312113131311121211131211111111111111111", 128, 33),
    ("1111113113132211111111111111111311311221", 128, 35),
    ("3111123111113211111123312113323322211111", 128, 27),
    ("2131221311123132111111111111111222211121", 128, 28),
    ("1332111113111121311111111111211111133111", 128, 34),
    ("1112313111121111111211121212233211211211", 128, 31),
    ("3232111111111321111112121121111212111221", 128, 33),
    ("3131111312111111131111211311111111111111", 128, 35),
]


@pytest.mark.parametrize("seed", range(3))
def test_cover_search_agrees_with_the_plain_search(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the cover search decides whether a path can visit every cell; unlimited here
    monkeypatch.setattr(cover, "COVER_BUDGET", 10**6)
    rng = random.Random(300 + seed)
    for _ in range(40):
        share = rng.uniform(0.35, 0.55)
        mask = sum(1 << i for i in range(ROWS * COLS) if rng.random() < share)
        if not mask:
            continue
        start = rng.choice(bits(mask))
        comp = component(1 << start, mask)
        size = comp.bit_count()
        if not 3 <= size < paths.EAGER:
            continue  # the plain search alone, below EAGER, is the reference
        search = paths.RegionPaths()
        for x in bits(comp):
            found = cover.cover_from(x, comp)
            assert bool(found) == (search.longest_from(x, comp) == size), (x, comp)
            if found:
                assert found[0] == x and len(found) == size
                assert sum(1 << c for c in found) == comp
                assert all(TOUCH[a] >> b & 1 for a, b in itertools.pairwise(found))


#: the slowest boards an adversarial search found, with their answers (the benchmark
#: times the same file)
SLOW_PINS = [
    tuple(pin)
    for pin in json.loads(
        (Path(__file__).parents[2] / "benchmarks" / "slow_hint_boards.json").read_text()
    )["pins"]
]


@pytest.mark.parametrize(("exponents", "tile", "length"), [*RAGGED_PINS, *SLOW_PINS])
def test_hint_on_pinned_boards_keeps_its_answers(exponents: str, tile: int, length: int) -> None:
    board = [[2 ** int(exponents[r * COLS + c]) for c in range(COLS)] for r in range(ROWS)]
    found = best_chain(board)
    assert found is not None
    check_chain(board, list(found))
    assert chain_key(board, found) == (tile, length)


#: the sha256 of the JSON list of the hint's chains on every pinned board, in order (the
#: chains hint.py gave before it became a package: its modules choose the same cells)
PINNED_CHAINS = "e089972e6e58dbc13ece03d58b33243dc00187149adb7f7d4e4b05efc6398250"


def test_hint_on_pinned_boards_keeps_its_very_cells() -> None:
    chains = []
    for exponents, _tile, _length in [*RAGGED_PINS, *SLOW_PINS]:
        board = [[2 ** int(exponents[r * COLS + c]) for c in range(COLS)] for r in range(ROWS)]
        chains.append(best_chain(board))
    assert hashlib.sha256(json.dumps(chains).encode()).hexdigest() == PINNED_CHAINS


@pytest.mark.parametrize("seed", range(2))
def test_the_frontier_programme_alone_matches_brute_force(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # no budget: every query the levels ask goes to the frontier programme
    monkeypatch.setattr(levels, "WORK_BUDGET", -1)
    rng = random.Random(700 + seed)
    for _ in range(25):
        assert_matches_brute_force(window_board(rng))
        assert_matches_brute_force(sparse_board(rng))


@pytest.mark.parametrize("seed", range(2))
def test_the_frontier_programme_agrees_with_the_search(seed: int) -> None:
    from twofold.variants.chain2248.frontier import longest_path, paths_from

    rng = random.Random(900 + seed)
    for _ in range(8):
        share = rng.uniform(0.4, 0.8)
        mask = sum(1 << i for i in range(ROWS * COLS) if rng.random() < share)
        cells = bits(mask)
        if len(cells) < 2:
            continue
        comp = component(1 << cells[0], mask)
        inside = bits(comp)
        x, end = rng.choice(inside), rng.choice(inside)
        search = paths.RegionPaths()
        for path, want in (
            (longest_path(comp, (x,)), search.longest_from(x, comp)),
            (longest_path(comp, (x, end)), search.longest_between(x, end, comp) if x != end else 1),
            (longest_path(comp, ()), search.longest_anywhere(comp).length if inside[1:] else 0),
            (paths_from(comp, x, comp & ~(1 << x)).get(end, []), 0),
        ):
            if want or path:
                assert len(set(path)) == len(path) and all(comp >> v & 1 for v in path)
                assert all(TOUCH[a] >> b & 1 for a, b in itertools.pairwise(path))
            if want:
                assert len(path) == want, (comp, x, end)
        if x != end:
            assert len(paths_from(comp, x, comp & ~(1 << x)).get(end, [])) == (
                search.longest_between(x, end, comp)
            )


def test_the_reference_solver_lives_with_the_tests() -> None:
    # the brute force search is the hint's yardstick, never shipped as a way to find one
    from twofold.variants.chain2248 import hint

    assert not hasattr(hint, "brute_force_chain")

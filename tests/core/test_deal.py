from __future__ import annotations

from collections import Counter

from twofold.core._deal import below, chance, draw


def test_draws_are_pinned() -> None:
    # The deal is a contract: changing these numbers changes every game ever shared.
    assert draw("00000000", 0) == 6182561650793164941
    assert [below("7K3M9QXP", i, 100) for i in range(5)] == [16, 0, 72, 38, 69]


def test_draws_depend_on_code_and_index() -> None:
    assert draw("AAAAAAAA", 0) != draw("AAAAAAAA", 1)
    assert draw("AAAAAAAA", 0) != draw("AAAAAAAB", 0)


def test_below_is_roughly_uniform() -> None:
    counts = Counter(below("UNIFORM0", i, 4) for i in range(4000))
    assert set(counts) == {0, 1, 2, 3}
    assert all(900 < n < 1100 for n in counts.values())


def test_chance_is_in_unit_interval() -> None:
    values = [chance("CHANCE00", i) for i in range(1000)]
    assert all(0.0 <= v < 1.0 for v in values)
    assert 0.45 < sum(values) / len(values) < 0.55


def test_a_draw_is_the_hash_of_its_whole_text_however_many_codes_are_kept() -> None:
    from hashlib import blake2b

    from twofold.core import _deal as deal

    def whole(code: str, index: int) -> int:
        text = f"{code}:{index}".encode("ascii")
        digest = blake2b(text, digest_size=16, person=b"twofold-deal").digest()
        return int.from_bytes(digest[:8], "big")

    codes = [f"{n:08d}" for n in range(deal.PREFIXES_KEPT + 3)]  # past the bound: cleared
    for index in (0, 7, 12345):
        assert [draw(code, index) for code in codes] == [whole(code, index) for code in codes]

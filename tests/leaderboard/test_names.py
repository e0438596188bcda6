"""Names for people: Unicode as they write it, look-alikes of a name on the board refused.

PRECIS's Nickname profile (precis-i18n) enforces a name: ZWNJ and ZWJ inside words, emoji
joined by ZWJ, no controls or invisible formatting, no name of blanks alone. A name that
looks like one already on the board (Unicode's confusables) is refused there.
"""

from __future__ import annotations

from aiohttp.test_utils import TestClient
from hypothesis import given
from hypothesis import strategies as st

from twofold.leaderboard.names import check_name, name_key

from .conftest import daily_result
from .test_api import send

PERSIAN = "می\u200cخواهم"  # a ZWNJ inside the word
CODER = "\U0001f469\u200d\U0001f4bb"  # woman technologist: two emoji joined by a ZWJ


async def test_names_as_people_write_them_are_taken(client: TestClient) -> None:
    for seed, name in enumerate([PERSIAN, CODER, f"Ana {CODER}", "  Zoë   Ng "], start=90):
        status, entry = await send(client, daily_result(seed), name=name)
        assert status == 201, (name, entry)
        assert entry["name"] == " ".join(name.split())


async def test_invisible_and_look_alike_names_are_refused(client: TestClient) -> None:
    assert (await send(client, daily_result(94), name="Ana"))[0] == 201
    for seed, name in enumerate(["\u2800", "\u3164", "\u2800\u2800 ", "a\u200bb"], start=95):
        status, answer = await send(client, daily_result(seed), name=name)
        assert status == 422, name
    for seed, alike in enumerate(["\u0410na", "An\u0430", "ＡＮＡ", "ana"], start=99):
        status, answer = await send(client, daily_result(seed), name=alike)
        assert status == 422, alike
        assert "looks like 'Ana'" in answer["error"]
    assert (await send(client, daily_result(103), name="Ana"))[0] == 201  # Ana herself


def test_look_alikes_share_a_key_and_others_do_not() -> None:
    assert name_key("Ana") == name_key("\u0410na") == name_key("ＡＮＡ") == name_key("ana")
    assert name_key("Ana") != name_key("Anna")
    assert name_key(PERSIAN) != name_key("Ana")


@given(st.text(max_size=30))
def test_a_name_taken_is_taken_again_as_it_is(text: str) -> None:
    try:
        name = check_name(text)
    except ValueError:
        return
    assert check_name(name) == name
    assert name_key(check_name(name)) == name_key(name)
    assert 1 <= len(name) <= 24

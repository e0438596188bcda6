from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from twofold.core.codes import (
    ALPHABET,
    CODE_LENGTH,
    CodeError,
    code_from_text,
    format_code,
    new_code,
    parse_code,
    parse_share,
    share_string,
)


def test_new_codes_are_valid_and_distinct() -> None:
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        assert len(code) == CODE_LENGTH
        assert parse_code(code) == code


def test_codes_are_case_insensitive_and_forgive_lookalikes_and_hyphens() -> None:
    code = code_from_text("example")
    assert parse_code(format_code(code).lower()) == code
    assert parse_code(" " + code[:4] + " " + code[4:] + " ") == code


def test_lookalike_letters_read_as_digits() -> None:
    code = code_from_text("lookalikes")
    typed = code.replace("1", "I").replace("0", "O")
    assert parse_code(typed) == code


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("ABC", "has 3"),
        ("ABCDEFGHJK", "has 10"),
        ("ABCD*FGH", "'*' at position 5"),
        ("ABCDUFGH", "'U' at position 5"),
    ],
)
def test_malformed_codes_say_what_is_wrong(text: str, fragment: str) -> None:
    with pytest.raises(CodeError, match=None) as info:
        parse_code(text)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message


@given(st.text(alphabet=ALPHABET, min_size=7, max_size=7), st.integers(0, 6), st.data())
def test_any_single_typo_is_caught(data_part: str, position: int, data: st.DataObject) -> None:
    code = code_from_text(data_part)
    wrong = data.draw(st.sampled_from([c for c in ALPHABET if c != code[position]]))
    typo = code[:position] + wrong + code[position + 1 :]
    with pytest.raises(CodeError, match="typo"):
        parse_code(typo)


def test_share_strings_round_trip() -> None:
    code = code_from_text("share")
    assert parse_share(share_string("2048-5x5", code)) == ("2048-5x5", code)
    assert parse_share(f"2048/{format_code(code).lower()}") == ("2048", code)
    with pytest.raises(CodeError):
        parse_share("/" + code)


@given(st.text(alphabet=ALPHABET, min_size=7, max_size=7), st.integers(0, 5))
def test_any_adjacent_swap_is_caught(data_part: str, position: int) -> None:
    code = code_from_text(data_part)
    if code[position] == code[position + 1]:
        return
    swapped = code[:position] + code[position + 1] + code[position] + code[position + 2 :]
    with pytest.raises(CodeError, match="typo"):
        parse_code(swapped)

"""The command line keeps its word: ``submit`` takes a file as well as text and ``-``, and
a game's code has one form for people, in the status line, the link and the rank."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from twofold.core.codes import format_code, parse_share
from twofold.core.plugins import registry
from twofold.core.session import MemoryStore, Session
from twofold.ui import submission
from twofold.ui.command import submit
from twofold.ui.command.cli import main
from twofold.ui.lines import run_lines


def a_result() -> tuple[str, str]:
    """A result as ``--plain``'s ``result`` gives it, and the status line before it."""
    session = Session(registry().mode("2048"), MemoryStore())
    out = io.StringIO()
    run_lines(session, json_mode=False, stdin=iter(["left", "result"]), stdout=out)
    lines = out.getvalue().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("twofold 2048:"))
    status = next(line for line in reversed(lines[:start]) if "Code " in line)
    return "\n".join(lines[start : start + 3]), status


def test_the_status_line_and_the_link_show_one_form_of_the_code() -> None:
    result, status = a_result()
    link = result.splitlines()[1]
    mode_id, code = parse_share(link)
    assert f"Code {format_code(code)}" in status
    assert link == f"{mode_id}/{format_code(code)}"  # as the status line has it


@pytest.fixture
def sent(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What ``submit`` would send (nothing goes out)."""
    texts: list[str] = []

    def send(address: str, result: str, name: str) -> submission.Sent:
        texts.append(result)
        return submission.Sent(1, "2048 F1SP-D7S4", True)

    monkeypatch.setattr(submit, "send_result", send)
    return texts


def test_submit_reads_a_file_named_on_the_line(
    tmp_path: Path, sent: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    result, _status = a_result()
    path = tmp_path / "result.txt"
    path.write_text(result + "\n", encoding="utf-8")
    assert main(["submit", str(path), "--to", "http://127.0.0.1:9/", "--name", "Ana"]) == 0
    assert sent == [result + "\n"]
    assert main(["submit", result, "--to", "http://127.0.0.1:9/", "--name", "Ana"]) == 0
    assert sent[-1] == result  # the text itself, as before


def test_submit_of_a_file_it_cannot_read_says_so_in_one_line(
    tmp_path: Path, sent: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "result.txt"
    path.write_bytes(b"\xff\xfe not text")
    assert main(["submit", str(path), "--to", "http://127.0.0.1:9/", "--name", "Ana"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("twofold: cannot read") and "\n" not in err
    assert sent == []


def test_the_rank_names_the_code_as_people_see_it(monkeypatch: pytest.MonkeyPatch) -> None:
    class Answer(io.BytesIO):
        def __enter__(self) -> Answer:
            return self

        def __exit__(self, *exc: Any) -> None:
            self.close()

    body = {"rank": 1, "mode": "2048", "code": "F1SPD7S4", "day": None, "new": False}
    monkeypatch.setattr(
        submission.urllib.request, "urlopen", lambda *a, **k: Answer(json.dumps(body).encode())
    )
    words = submission.send_result("http://127.0.0.1:9/", "text", "Ana").words
    assert words == "Already sent: rank 1 on 2048 F1SP-D7S4."

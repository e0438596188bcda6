"""The private name of textual-serve that ``twofold.ui.web.serve_private`` reads, checked."""

from __future__ import annotations

import asyncio
import sys
from asyncio.subprocess import Process

import pytest

pytest.importorskip("textual_serve")

from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from twofold.ui.web.serve_private import page_process


async def nothing(*_args: object) -> None:
    return None


def test_private_process_is_the_app_process_started_for_a_page() -> None:
    """``AppService._process``: None before start, then the running app's process."""

    async def run() -> tuple[Process | None, Process | None, int | None]:
        command = f"exec {sys.executable} -c 'import sys; sys.stdin.read()'"
        service = AppService(
            command,
            write_bytes=nothing,
            write_str=nothing,
            close=nothing,
            download_manager=DownloadManager(),
        )
        before = page_process(service)
        await service.start(80, 24)
        started = page_process(service)
        running = None if started is None else started.returncode
        if started is not None:
            started.kill()
            await started.wait()
        await service.stop()
        return before, started, running

    before, started, running = asyncio.run(run())
    assert before is None
    assert isinstance(started, Process) and started.pid > 0
    assert running is None  # it was running when read

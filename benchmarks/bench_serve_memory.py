"""``twofold serve``: what one page can make its process take, and what many pages take.

Each case starts a fresh ``twofold serve --port 0`` (its own TWOFOLD_HOME) and talks to it
as a page's websocket does, without a browser:

* size: a page opened with ``?width=100000&height=100000``; its process's memory (RSS)
  every second for ``--seconds``, and how fast it grew.
* resize: a page at 80x24 that sends ``["resize", {"width": 100000, "height": 100000}]``.
* negative: a page that sends a resize to -5x-5: whether its process still runs.
* frame: one ``stdin`` frame of 3.9 MB: the page process's peak memory (VmHWM);
  frame-8K: one just under the server's cap of 8 KiB; flood: 60 of those at once.
* pages: ``--pages`` pages opened at once: how many get a process, and their memory.
* resizes, focus, pings, keys: a page that sends frames of one kind as fast as its socket
  takes them for ``--seconds`` (once, 60 s of resizes took a page process from 44 MB
  to 979 MB); its process's memory every second.
* deep: one frame of 4,000 ``[``: whether the page's app still runs.
* stop: 25 s of every kind of flood, then SIGINT: the seconds the server takes to end.

Linux only (it reads /proc). Run it niced, it makes processes large on purpose:

    nice -n 19 .venv/bin/python benchmarks/bench_serve_memory.py [--seconds 5] [--pages 30]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp

from tests.browser.served import Served, start_server

HUGE = 100_000


def page_processes(server: int) -> list[int]:
    """The pids whose parent is ``server``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == server:
            found.append(int(entry.name))
    return found


def memory_mb(pid: int, field: str = "VmRSS") -> float:
    """A /proc status field of ``pid`` in MB (0 once it has gone)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


async def first_screen(websocket: aiohttp.ClientWebSocketResponse, seconds: float) -> bool:
    """Whether the page's app sent anything within ``seconds``."""
    try:
        message = await asyncio.wait_for(websocket.receive(), seconds)
    except TimeoutError:
        return False
    return message.type == aiohttp.WSMsgType.BINARY


async def drain(websocket: aiohttp.ClientWebSocketResponse) -> None:
    """Read and drop what the app sends, as a page's terminal would."""
    async for _message in websocket:
        pass


async def send_all(websocket: aiohttp.ClientWebSocketResponse, messages: list[str]) -> None:
    for message in messages:
        await websocket.send_str(message)


#: one frame of each kind a page sends, in the turns a flood of that kind takes
FLOODS = {
    # every size a screen has, in turn (a size already drawn may be cached, a new one not)
    "resizes": [
        json.dumps(["resize", {"width": 20 + (n * 37) % 780, "height": 5 + (n * 11) % 245}])
        for n in range(4096)
    ],
    "focus": [json.dumps(["blur"]), json.dumps(["focus"])],
    "pings": [json.dumps(["ping", "x" * 40])],
    "keys": [json.dumps(["stdin", "\x1b[A\x1b[B"])],
}


async def send_for(
    websocket: aiohttp.ClientWebSocketResponse, frames: list[str], seconds: float
) -> int:
    """Send ``frames`` in turn as fast as the socket takes them, for ``seconds``; how many."""
    sent = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            await websocket.send_str(frames[sent % len(frames)])
        except (ConnectionError, aiohttp.ClientError):
            return -sent  # the server closed the page (negative: how many before it did)
        sent += 1
        if sent % 64 == 0:
            await asyncio.sleep(0)  # let the readers run
    return sent


async def flood(served: Served, frames: list[str], seconds: float) -> dict[str, object]:
    """A page flooding frames for ``seconds``: its process's memory each second."""
    address = served.url.replace("http://", "ws://") + "ws"
    samples: list[float] = []
    async with aiohttp.ClientSession() as client:
        websocket = await client.ws_connect(address, max_msg_size=0)
        async with websocket:
            drawn = await first_screen(websocket, 30)
            reading = asyncio.create_task(drain(websocket))
            (pid,) = page_processes(served.process.pid) or [0]
            sending = asyncio.create_task(send_for(websocket, frames, seconds))
            start = time.monotonic()
            samples.append(memory_mb(pid))
            while time.monotonic() - start < seconds:
                await asyncio.sleep(1)
                samples.append(memory_mb(pid))
            sent = await sending
            alive = pid != 0 and Path(f"/proc/{pid}").exists() and memory_mb(pid) > 0
            reading.cancel()
    return {
        "drew": drawn,
        "alive": alive,
        "frames": sent,
        "VmRSS MB first, last, most": [samples[0], samples[-1], max(samples)] if samples else [],
    }


async def flood_then_stop(served: Served, seconds: float) -> dict[str, object]:
    """Every kind of flood for ``seconds``, then SIGINT: how long the server takes to end."""
    address = served.url.replace("http://", "ws://") + "ws"
    frames = [frame for kind in FLOODS.values() for frame in kind]
    frames.append(json.dumps(["stdin", "x" * 8_000]))
    async with aiohttp.ClientSession() as client:
        websocket = await client.ws_connect(address, max_msg_size=0)
        await first_screen(websocket, 30)
        reading = asyncio.create_task(drain(websocket))
        await send_for(websocket, frames, seconds)
        began = time.monotonic()
        served.process.send_signal(signal.SIGINT)
        while served.process.poll() is None and time.monotonic() - began < 120:
            await asyncio.sleep(0.1)
        took = time.monotonic() - began
        ended = served.process.poll() is not None
        reading.cancel()
    return {"ended on the first SIGINT": ended, "seconds": round(took, 1)}


def server_in(home: Path, *extra: str) -> Served:
    return start_server(home, *extra)


async def one_page(
    served: Served, query: str, then: list[str], seconds: float, field: str
) -> dict[str, object]:
    address = served.url.replace("http://", "ws://") + "ws" + query
    samples: list[float] = []
    async with aiohttp.ClientSession() as client:
        try:
            websocket = await client.ws_connect(address, max_msg_size=0)
        except aiohttp.WSServerHandshakeError as error:
            return {"refused": error.status}
        async with websocket:
            drawn = await first_screen(websocket, 30)
            reading = asyncio.create_task(drain(websocket))
            # sent alongside: a server that paces input makes a flood wait in its sender
            sending = asyncio.create_task(send_all(websocket, then))
            (pid,) = page_processes(served.process.pid) or [0]
            start = time.monotonic()
            while time.monotonic() - start < seconds:
                await asyncio.sleep(1)
                samples.append(memory_mb(pid, field))
            alive = pid != 0 and Path(f"/proc/{pid}").exists() and memory_mb(pid) > 0
            reading.cancel()
            sending.cancel()
    growth = (samples[-1] - samples[0]) / max(1, len(samples) - 1) if samples else 0.0
    return {
        "drew": drawn,
        "alive": alive,
        f"{field} MB": [round(s, 1) for s in samples],
        "MB/s": round(growth, 1),
    }


async def many_pages(served: Served, pages: int) -> dict[str, object]:
    address = served.url.replace("http://", "ws://") + "ws"
    async with aiohttp.ClientSession() as client:
        opened, refused = [], 0
        for _ in range(pages):
            try:
                opened.append(await client.ws_connect(address, max_msg_size=0))
            except aiohttp.WSServerHandshakeError:
                refused += 1
        drawn = await asyncio.gather(*(first_screen(w, 60) for w in opened))
        await asyncio.sleep(2)
        pids = page_processes(served.process.pid)
        each = [memory_mb(pid) for pid in pids]
        for websocket in opened:
            await websocket.close()
    return {
        "asked": pages,
        "refused": refused,
        "drew": sum(drawn),
        "processes": len(pids),
        "MB each (mean)": round(sum(each) / max(1, len(each)), 1),
        "MB in all": round(sum(each), 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=int, default=5, help="how long each page is watched")
    parser.add_argument("--pages", type=int, default=30, help="pages opened at once")
    parser.add_argument("--only", nargs="*", help="run only these cases")
    args = parser.parse_args()
    resize = json.dumps(["resize", {"width": HUGE, "height": HUGE}])
    cases = {
        "size": lambda s: one_page(s, f"?width={HUGE}&height={HUGE}", [], args.seconds, "VmRSS"),
        "resize": lambda s: one_page(s, "", [resize], args.seconds, "VmRSS"),
        "negative": lambda s: one_page(
            s, "", [json.dumps(["resize", {"width": -5, "height": -5}])], 3, "VmRSS"
        ),
        "frame": lambda s: one_page(
            s, "", [json.dumps(["stdin", "x" * 3_900_000])], args.seconds, "VmHWM"
        ),
        "frame-8K": lambda s: one_page(
            s, "", [json.dumps(["stdin", "x" * 8_000])], args.seconds, "VmHWM"
        ),
        "flood": lambda s: one_page(
            s, "", [json.dumps(["stdin", "x" * 8_000])] * 60, args.seconds, "VmHWM"
        ),
        "pages": lambda s: many_pages(s, args.pages),
        "deep": lambda s: one_page(s, "", ["[" * 4_000], 3, "VmRSS"),
        "stop": lambda s: flood_then_stop(s, 25),
    }
    for kind, frames in FLOODS.items():
        cases[kind] = lambda s, frames=frames: flood(s, frames, args.seconds)
    for name, case in cases.items():
        if args.only and name not in args.only:
            continue
        with tempfile.TemporaryDirectory() as home:
            served = server_in(Path(home))
            try:
                result = asyncio.run(case(served))
            finally:
                served.stop()
        print(f"{name:9} {result}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

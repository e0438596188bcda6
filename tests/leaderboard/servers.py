"""Leaderboard servers in processes of their own, and PostgreSQL 15 started for the tests."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from tests.waiting import wait_until


@contextlib.contextmanager
def leaderboard(
    database: str,
    home: Path,
    workers: int = 1,
    *,
    python: str = sys.executable,
    environ: Mapping[str, str] | None = None,
) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """``twofold leaderboard`` on a free port, run by ``python`` with ``environ`` (this
    process's by default); yields the process and its address."""
    server = subprocess.Popen(
        [
            python, "-m", "twofold", "leaderboard", "--port", "0",
            "--workers", str(workers),
            "--database", database, "--rate", "1000000", "--read-rate", "1000000",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**(os.environ if environ is None else environ), "TWOFOLD_HOME": str(home)},
    )  # fmt: skip
    try:
        line = server.stdout.readline() if server.stdout else ""
        assert "http://" in line, (line, server.stderr.read() if server.stderr else "")
        address = line.split("at ", 1)[1].split()[0].replace("localhost", "127.0.0.1")
        yield server, address
    finally:
        if server.poll() is None:
            server.terminate()
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _as_postgres(argv: list[str]) -> list[str]:
    # initdb refuses to run as root: there, the cluster is the postgres user's
    if os.geteuid() == 0:
        runuser = shutil.which("runuser")
        if runuser is None:
            pytest.skip("running as root with no runuser to become postgres")
        return [runuser, "-u", "postgres", "--", *argv]
    return argv


@contextlib.contextmanager
def postgresql(folder: Path) -> Iterator[Cluster]:
    """A PostgreSQL cluster of its own in ``folder``; yields its URL. Skips without initdb."""
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb is None or pg_ctl is None:
        pytest.skip("initdb and pg_ctl are not on PATH (PostgreSQL is not installed)")
    pytest.importorskip("psycopg", reason="the postgres extra is not installed")
    if os.geteuid() == 0:
        # the postgres user cannot enter root's own temporary folders: a folder of its own
        folder = Path(tempfile.mkdtemp(prefix="twofold-pg-"))
        shutil.chown(folder, "postgres", "postgres")
    folder.mkdir(parents=True, exist_ok=True)
    data, sockets = folder / "data", folder / "sockets"
    subprocess.run(_as_postgres(["mkdir", "-p", str(sockets)]), check=True, timeout=30)
    subprocess.run(
        _as_postgres([initdb, "-D", str(data), "-A", "trust", "-U", "postgres", "-E", "UTF8"]),
        check=True,
        capture_output=True,
        timeout=180,
    )
    port = free_port()
    options = f"-p {port} -k {sockets} -c listen_addresses=127.0.0.1 -c fsync=on"
    cluster = Cluster(
        f"postgresql://postgres@127.0.0.1:{port}/postgres", pg_ctl, data, options, folder
    )
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop("immediate")
        if os.geteuid() == 0:
            shutil.rmtree(folder, ignore_errors=True)


class Cluster(str):
    """A running cluster's URL, which can also stop it and start it again."""

    pg_ctl: str
    data: Path
    options: str
    folder: Path

    def __new__(cls, url: str, pg_ctl: str, data: Path, options: str, folder: Path) -> Cluster:
        found = super().__new__(cls, url)
        found.pg_ctl, found.data, found.options, found.folder = pg_ctl, data, options, folder
        return found

    def start(self) -> None:
        log = self.folder / "postgres.log"
        argv = [self.pg_ctl, "-D", str(self.data), "-o", self.options, "-l", str(log), "-w"]
        subprocess.run(
            _as_postgres([*argv, "start"]),
            check=True,
            capture_output=True,
            timeout=120,
        )

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(
            _as_postgres([self.pg_ctl, "-D", str(self.data), "-m", mode, "-w", "stop"]),
            capture_output=True,
            timeout=120,
        )


def wait_for_exit(process: subprocess.Popen[str]) -> None:
    wait_until(lambda: process.poll() is not None, 30)
    time.sleep(0)

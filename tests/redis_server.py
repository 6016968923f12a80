"""A real redis-server on a free loopback port, started and stopped by the tests.

Skipped with a clear reason when no redis-server binary exists, except under CI
(ROBOTSCLIENT_REQUIRE_REDIS=1, set by .ci/run), where a missing binary fails the run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import time
from dataclasses import dataclass, field

import pytest

STARTUP_TIMEOUT = 10.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def find_redis_server() -> str:
    binary = shutil.which("redis-server") or next(
        (
            path
            for path in ("/usr/bin/redis-server", "/usr/local/bin/redis-server")
            if os.path.exists(path)
        ),
        None,
    )
    if binary is None:
        reason = "no redis-server binary on PATH (install it: apt-get install redis-server)"
        if os.environ.get("ROBOTSCLIENT_REQUIRE_REDIS"):
            pytest.fail(reason + "; ROBOTSCLIENT_REQUIRE_REDIS is set, so this is an error")
        pytest.skip(reason)
    return binary


@dataclass
class RedisServer:
    """One redis-server process; `stop()` and `start()` reuse the same port (fault tests)."""

    binary: str
    port: int = field(default_factory=free_port)
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if self.process is not None and self.process.poll() is None:
            return
        command = [
            self.binary,
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--save", "",
            "--appendonly", "no",
            "--protected-mode", "yes",
        ]  # fmt: skip
        self.process = subprocess.Popen(
            command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + STARTUP_TIMEOUT
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.2) as sock:
                    sock.sendall(b"PING\r\n")
                    if sock.recv(16).startswith(b"+PONG"):
                        return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        if self.process is None:
            return
        self.process.kill()
        self.process.wait(timeout=10)
        self.process = None

    def flush(self) -> None:
        with socket.create_connection(("127.0.0.1", self.port), timeout=2) as sock:
            sock.sendall(b"FLUSHALL\r\n")
            sock.recv(16)

"""`pinleague run` as a self-hoster meets its failures: each ends in one line naming the cause and the fix, a
non-zero exit and no traceback, in real subprocesses with nothing reaching the network."""

from __future__ import annotations

import asyncio
import os
import socket
import socketserver
import sqlite3
import struct
import subprocess
import sys
import threading
import time
from asyncio.subprocess import PIPE, STDOUT
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from bot.local.emulator import Emulator
from tests.conftest import IN_CI, PG_ADMIN_URL

START_WITHIN = 20.0  # seconds
NOWHERE = "http://127.0.0.1:1/api/v10"  # a closed port: Discord unreachable without leaving the machine
NOWHERE_GATEWAY = "ws://127.0.0.1:1/"
PINLEAGUE_SCRIPT = Path(sys.executable).parent / "pinleague"


def environment(tmp_path: Path, **settings: str) -> dict[str, str]:
    """This process's environment with a token and these PINLEAGUE_ settings instead of any of its own."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PINLEAGUE_")}
    env |= {
        "PINLEAGUE_DISCORD_TOKEN": "not-a-real-token",
        "PINLEAGUE_DISCORD_API_URL": NOWHERE,
        "PINLEAGUE_DISCORD_GATEWAY_URL": NOWHERE_GATEWAY,
        "PINLEAGUE_DATA_DIR": str(tmp_path / "data"),
        "PINLEAGUE_LOG_LEVEL": "WARNING",
    }
    env |= {f"PINLEAGUE_{key.upper()}": value for key, value in settings.items()}
    return {key: value for key, value in env.items() if value}


def start(tmp_path: Path, *, command: list[str] | None = None, stdin: str = "", **settings: str) -> tuple[int, str]:
    """Run the command (default `python -m bot run`) in `tmp_path`; the exit code and everything it printed."""
    began = time.monotonic()
    done = subprocess.run(
        command or [sys.executable, "-m", "bot", "run"],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=START_WITHIN + 10,
        env=environment(tmp_path, **settings),
        cwd=tmp_path,  # no .env here
    )
    assert time.monotonic() - began < START_WITHIN
    return done.returncode, done.stdout + done.stderr


def one_line_failure(code: int, output: str) -> str:
    assert code != 0, output
    assert "Traceback" not in output, output
    lines = output.strip().splitlines()
    assert len(lines) == 1, output
    assert lines[0].startswith("pinleague cannot start: "), output
    return lines[0]


def test_postgresql_on_a_closed_port(tmp_path: Path) -> None:
    line = one_line_failure(*start(tmp_path, database_url="postgresql+asyncpg://postgres@127.0.0.1:1/x"))
    assert "127.0.0.1:1" in line and "connection refused" in line and "PINLEAGUE_DATABASE_URL" in line


def test_the_console_script_says_the_same(tmp_path: Path) -> None:
    command = [str(PINLEAGUE_SCRIPT), "run"]
    line = one_line_failure(
        *start(tmp_path, command=command, database_url="postgresql+asyncpg://postgres@127.0.0.1:1/x")
    )
    assert "connection refused" in line


def test_a_data_folder_under_a_regular_file(tmp_path: Path) -> None:
    blocking = tmp_path / "not-a-folder"
    blocking.write_text("a file where a folder should be")
    line = one_line_failure(*start(tmp_path, data_dir=str(blocking / "data")))
    assert f"PINLEAGUE_DATA_DIR={blocking / 'data'}" in line and f"{blocking} is a file, not a folder" in line


def test_discord_unreachable(tmp_path: Path) -> None:
    line = one_line_failure(*start(tmp_path))
    assert "cannot reach Discord at 127.0.0.1" in line and "network" in line


def test_a_database_migrated_by_a_newer_version(tmp_path: Path) -> None:
    (tmp_path / "data").mkdir()
    with sqlite3.connect(tmp_path / "data" / "pinleague.db") as connection:
        connection.execute("CREATE TABLE alembic_version (version_num VARCHAR(32) NOT NULL PRIMARY KEY)")
        connection.execute("INSERT INTO alembic_version VALUES ('9999_from_the_future')")
    line = one_line_failure(*start(tmp_path))
    assert "migration 9999_from_the_future" in line and "newer version" in line


def test_a_failed_migration_leaves_the_database_as_it_was(tmp_path: Path) -> None:
    """A database that already holds a table of the same name (another program's): the first migration fails."""
    (tmp_path / "data").mkdir()
    database = tmp_path / "data" / "pinleague.db"
    with sqlite3.connect(database) as connection:
        connection.execute("CREATE TABLE league (id INTEGER PRIMARY KEY, title TEXT)")
    line = one_line_failure(*start(tmp_path))
    assert "migrating the database failed" in line and "table league already exists" in line, line
    with sqlite3.connect(database) as connection:
        tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    assert tables == {"league"}


def test_a_missing_postgresql_database(tmp_path: Path) -> None:
    server = make_url(PG_ADMIN_URL)
    try:
        socket.create_connection((server.host or "127.0.0.1", server.port or 5432), timeout=1).close()
    except OSError:
        if IN_CI:
            raise
        pytest.skip(f"no PostgreSQL at {server.host}:{server.port}")
    missing = server.set(database="pinleague_no_such_database")
    code, output = start(tmp_path, database_url=missing.render_as_string(hide_password=False))
    line = one_line_failure(code, output)
    assert "has no database 'pinleague_no_such_database'" in line and "createdb" in line


def test_run_without_a_token_says_which_database_the_demo_uses(tmp_path: Path) -> None:
    """PINLEAGUE_DATABASE_URL is not silently ignored: the demo chat says it runs on a temporary database."""
    code, output = start(
        tmp_path,
        discord_token="",
        database_url="postgresql+asyncpg://league:secret@db.example:5432/league",
        stdin=":quit\n",
    )
    assert code == 0, output
    assert "temporary SQLite database" in output
    assert "PINLEAGUE_DATABASE_URL (postgresql+asyncpg://league:***@db.example:5432/league)" in output
    assert "secret" not in output


class RefusingPostgres(socketserver.BaseRequestHandler):
    """Answers every login as a PostgreSQL server whose password check fails (SQLSTATE 28P01)."""

    def handle(self) -> None:
        startup = self._packet()
        if struct.unpack("!I", startup[:4])[0] == SSL_REQUEST:
            self.request.sendall(b"N")  # no TLS here; the client goes on in plain text
            self._packet()
        fields = b'SFATAL\0C28P01\0Mpassword authentication failed for user "league"\0\0'
        self.request.sendall(b"E" + struct.pack("!I", len(fields) + 4) + fields)

    def _packet(self) -> bytes:
        length = struct.unpack("!I", self._read(4))[0]
        return self._read(length - 4)

    def _read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.request.recv(count - len(data))
            if not chunk:
                raise ConnectionError("the client left")
            data += chunk
        return data


SSL_REQUEST = 80877103  # the code of PostgreSQL's SSLRequest packet


def test_postgresql_refusing_the_password(tmp_path: Path) -> None:
    with socketserver.ThreadingTCPServer(("127.0.0.1", 0), RefusingPostgres) as server:
        threading.Thread(target=server.serve_forever, daemon=True).start()
        port = server.server_address[1]
        url = f"postgresql+asyncpg://league:wrong@127.0.0.1:{port}/league"
        try:
            line = one_line_failure(*start(tmp_path, database_url=url))
        finally:
            server.shutdown()
    assert "refused the password of user 'league'" in line and "PINLEAGUE_DATABASE_URL" in line
    assert "wrong" not in line


async def test_a_metrics_port_already_taken(tmp_path: Path) -> None:
    """Discord (the emulator) is reached, then the metrics port is found taken."""
    async with Emulator() as emulator:
        with socket.socket() as taken:
            taken.bind(("127.0.0.1", 0))
            taken.listen()
            port = taken.getsockname()[1]
            env = environment(
                tmp_path,
                discord_token=emulator.token,
                discord_api_url=emulator.api_url,
                discord_gateway_url=str(emulator.gateway_url),
                metrics_port=str(port),
            )
            process = await asyncio.create_subprocess_exec(
                sys.executable, "-m", "bot", "run", env=env, cwd=tmp_path, stdout=PIPE, stderr=STDOUT
            )
            output, _ = await asyncio.wait_for(process.communicate(), START_WITHIN)
    line = one_line_failure(process.returncode or 0, output.decode())
    assert f"cannot serve metrics on 127.0.0.1:{port}" in line and "PINLEAGUE_METRICS_PORT" in line

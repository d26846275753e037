#!/usr/bin/env python3
"""The two commands of the README, for a machine with nothing but Python 3.11+.

    python3 manage.py run    [pinleague arguments…]   install what the bot needs, then start it
    python3 manage.py test   [pytest arguments…]      install the bot and its test tools, then run every test
                                                      (on every core, then the `alone` tests in one process;
                                                      `-p no:xdist` for one process throughout)

Both create `.venv` on first use and install the pinned versions from `constraints.txt`; later runs
reinstall only when pyproject.toml or constraints.txt changed. Standard library only.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / ("python.exe" if os.name == "nt" else "python")
USAGE = __doc__ or ""
# uv installs without compiling; each module is compiled on first import and its .pyc kept for every later
# process. Where the environment says not to write bytecode, every test worker and every bot the tests start
# would compile its imports again (about 3 s of CPU each), so the commands here drop that setting.
CHILD_ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):  # noqa: UP036 (this script may be started by an older python3)
        print(f"pinleague needs Python 3.11 or newer; this is {sys.version.split()[0]}.", file=sys.stderr)
        return 2
    if not argv or argv[0] not in ("run", "test"):
        print(USAGE, file=sys.stderr)
        return 2
    command, rest = argv[0], argv[1:]
    extras = "[dev]" if command == "test" else ""
    ensure_installed(extras)
    if command == "run":
        return subprocess.call([str(BIN / "pinleague"), *(rest or ["run"])], cwd=ROOT, env=CHILD_ENV)
    return run_tests(rest)


def run_tests(args: list[str]) -> int:
    """pytest in parallel, then the tests marked `alone` in one process: they hold the bot to Discord's 3 s deadline
    under a burst of load, which another worker's tests would distort.

    The parallel part (pytest-xdist) runs one worker more than cores, as a worker often waits on PostgreSQL or on a
    bot process it started, and idle workers take tests queued on busy ones (`worksteal`), so a half-minute test
    near the end does not hold the run. On 2 cores: 350 s with 2 workers, 327 s with 3, 291 s with 3 stealing.
    Arguments that choose the processes (`-n`, `--dist`, `-p no:xdist`) or the markers (`-m`) run as given."""
    pytest = [str(PYTHON), "-m", "pytest"]
    chosen = any(a.startswith(("-n", "--numprocesses", "--dist", "-m")) or a.endswith("no:xdist") for a in args)
    if chosen:
        return subprocess.call([*pytest, *args], cwd=ROOT, env=CHILD_ENV)
    workers = str((os.cpu_count() or 1) + 1)
    with tempfile.TemporaryDirectory() as scratch:
        # The parallel part's first worker lists the `alone` tests it collected (tests/conftest.py): the `alone`
        # part then collects their files only. Given paths or ids, it collects what it is given, as before.
        listed = Path(scratch) / "alone.txt"
        env = {**CHILD_ENV, "PINLEAGUE_TEST_ALONE_LIST": str(listed)}
        parallel = subprocess.call(
            [*pytest, "-n", workers, "--dist", "worksteal", "-m", "not alone", *args], cwd=ROOT, env=env
        )
        chosen_tests = any(Path(ROOT, a.split("::")[0]).exists() for a in args if not a.startswith("-"))
        ids = listed.read_text().split("\n")[:-1] if listed.exists() and not chosen_tests else None
    if ids == []:
        alone = NO_TESTS_RAN
    else:
        alone = subprocess.call(
            [*pytest, "-p", "no:xdist", "-m", "alone", *(ids or []), *args], cwd=ROOT, env=CHILD_ENV
        )
    if parallel == alone == NO_TESTS_RAN:
        return NO_TESTS_RAN
    return max(code for code in (parallel, alone) if code != NO_TESTS_RAN)


NO_TESTS_RAN = 5  # pytest's exit code when nothing was collected (here: no test of that kind among the arguments)


def ensure_installed(extras: str) -> None:
    if not PYTHON.exists():
        print("Creating .venv …", flush=True)
        subprocess.check_call([sys.executable, "-m", "venv", str(VENV)])
    stamp = VENV / f".installed{extras or '[run]'}"
    wanted = _fingerprint(extras)
    if stamp.exists() and stamp.read_text() == wanted:
        return
    print(f"Installing pinleague{extras} with pinned versions (first run only) …", flush=True)
    constraints = str(ROOT / "constraints.txt")
    # pip brings uv (pinned in constraints.txt), which installs the rest: it fetches and unpacks in parallel,
    # about 10 s where pip alone takes about a minute on a 2-core machine with an empty cache.
    subprocess.check_call(
        [str(PYTHON), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-c", constraints, "uv"],
        cwd=ROOT,
    )
    subprocess.check_call(
        [str(PYTHON), "-m", "uv", "pip", "install", "--quiet", "--python", str(PYTHON), "-c", constraints,
         "-e", f"{ROOT}{extras}"],
        cwd=ROOT,
    )  # fmt: skip
    stamp.write_text(wanted)


def _fingerprint(extras: str) -> str:
    digest = hashlib.sha256(extras.encode())
    for name in ("pyproject.toml", "constraints.txt"):
        digest.update((ROOT / name).read_bytes())
    return digest.hexdigest()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

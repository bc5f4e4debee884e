"""``skuflow-services up|down|status|restart|kill``: run the eight services as local processes.

Each service is a separate ``python -m skuflow_<name>`` process with its own log file and pid
file under the run directory; ``up`` waits until every service answers /readyz.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import httpx

SERVICES = {"gateway": 8000, "evaluator": 8001, "parser": 8002, "classifier": 8003, "extractor": 8004,
            "binder": 8005, "collab": 8006, "output": 8007}


@dataclass(frozen=True)
class Supervisor:
    run_dir: Path
    env: dict[str, str]
    port_offset: int = 0

    def port(self, name: str) -> int:
        return SERVICES[name] + self.port_offset

    def pid_file(self, name: str) -> Path:
        return self.run_dir / f"{name}.pid"

    def log_file(self, name: str) -> Path:
        return self.run_dir / f"{name}.log"

    def _recorded(self, name: str) -> int | None:
        """The pid the pid file names, if some process still has it."""
        try:
            pid = int(self.pid_file(name).read_text())
            os.kill(pid, 0)
        except (FileNotFoundError, ValueError, ProcessLookupError):
            return None
        return pid

    def pid(self, name: str) -> int | None:
        """The service's live process: a dead, dying (zombie) or reused pid does not count."""
        pid = self._recorded(name)
        return pid if pid is not None and _is_live_service(pid, name) else None

    def start(self, name: str) -> None:
        if self.pid(name):
            return
        self.run_dir.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, **self.env, "SKUFLOW_HTTP_PORT": str(self.port(name))}
        with self.log_file(name).open("ab") as log:
            process = subprocess.Popen([sys.executable, "-m", f"skuflow_{name}"], env=env, stdout=log,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        self.pid_file(name).write_text(str(process.pid))

    def stop(self, name: str, sig: int = signal.SIGTERM, timeout: float = 20) -> None:
        pid = self.pid(name)
        if pid is None:
            return
        os.kill(pid, sig)
        deadline = time.monotonic() + timeout
        while self.pid(name) and time.monotonic() < deadline:
            _reap(pid)
            time.sleep(0.1)
        if self.pid(name):
            os.kill(pid, signal.SIGKILL)
            _reap(pid)
        self.pid_file(name).unlink(missing_ok=True)

    def _exited(self, name: str) -> bool:
        """The process the pid file names is gone or a zombie (not merely unrecognisable yet)."""
        pid = self._recorded(name)
        return pid is None or _is_zombie(pid)

    def ready(self, name: str) -> bool:
        try:
            return httpx.get(f"http://127.0.0.1:{self.port(name)}/readyz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def wait_ready(self, names: list[str], timeout: float = 90) -> None:
        """A service that exits during start-up (e.g. its port still held by a dying predecessor)
        is started once more before this gives up."""
        deadline = time.monotonic() + timeout
        pending = list(names)
        restarted: set[str] = set()
        while pending and time.monotonic() < deadline:
            for name in list(pending):
                if self.pid(name) is None:
                    if not self._exited(name):
                        continue  # between fork and exec: not yet recognisable, not gone either
                    if name in restarted:
                        raise RuntimeError(f"{name} exited during start-up; see {self.log_file(name)}:\n"
                                           + _tail(self.log_file(name)))
                    restarted.add(name)
                    time.sleep(1)
                    self.start(name)
                if self.ready(name):
                    pending.remove(name)
            time.sleep(0.3)
        if pending:
            raise RuntimeError(f"not ready after {timeout}s: {', '.join(pending)} (logs in {self.run_dir})")


def _is_zombie(pid: int) -> bool:
    with contextlib.suppress(OSError, IndexError):
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    return False


def _is_live_service(pid: int, name: str) -> bool:
    """False for a zombie or for a pid the system has since given to another program (Linux /proc)."""
    proc = Path(f"/proc/{pid}")
    if not proc.exists():
        return True  # no /proc (not Linux): trust the signal check
    if _is_zombie(pid):
        return False
    with contextlib.suppress(OSError):
        return f"skuflow_{name}".encode() in (proc / "cmdline").read_bytes()
    return False


def _reap(pid: int) -> None:
    """Collect a child that has exited so it does not linger as a zombie that still 'exists'."""
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def _tail(path: Path, lines: int = 20) -> str:
    return "\n".join(path.read_text(errors="replace").splitlines()[-lines:]) if path.exists() else ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="skuflow-services", description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["up", "down", "status", "restart", "kill"])
    parser.add_argument("names", nargs="*", help="services (default: all)")
    parser.add_argument("--run-dir", type=Path,
                        default=Path(os.environ.get("SKUFLOW_RUN_DIR", ".run")) / "services")
    args = parser.parse_args(argv)
    names = args.names or list(SERVICES)
    unknown = set(names) - set(SERVICES)
    if unknown:
        parser.error(f"unknown service(s): {', '.join(sorted(unknown))}")
    sup = Supervisor(args.run_dir, env={})
    if args.command in ("up", "restart"):
        if args.command == "restart":
            for name in names:
                sup.stop(name)
        for name in names:
            sup.start(name)
        sup.wait_ready(names)
    elif args.command in ("down", "kill"):
        for name in names:
            sup.stop(name, signal.SIGKILL if args.command == "kill" else signal.SIGTERM)
    for name in names:
        state = "ready" if sup.ready(name) else ("running" if sup.pid(name) else "stopped")
        print(f"{name:<11} {state:<8} http://127.0.0.1:{sup.port(name)}  log {sup.log_file(name)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

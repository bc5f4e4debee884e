"""The supervisor's idea of 'running': a killed (zombie) or reused pid must not block ``up``."""

import signal
import subprocess
import sys
import time

from skuflow_cli.supervisor import Supervisor


def test_a_killed_service_whose_pid_file_remains_counts_as_stopped(tmp_path):
    sup = Supervisor(tmp_path, env={})
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "skuflow_parser"])
    sup.pid_file("parser").write_text(str(child.pid))
    deadline = time.monotonic() + 10
    while sup.pid("parser") is None and time.monotonic() < deadline:  # /proc may lag the exec a moment
        time.sleep(0.05)
    assert sup.pid("parser") == child.pid
    child.send_signal(signal.SIGKILL)
    time.sleep(0.3)  # not reaped yet: a zombie that still answers kill(pid, 0)
    assert sup.pid("parser") is None
    child.wait()


def test_a_pid_reused_by_another_program_is_not_the_service(tmp_path):
    sup = Supervisor(tmp_path, env={})
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        sup.pid_file("gateway").write_text(str(other.pid))
        assert sup.pid("gateway") is None
    finally:
        other.kill()
        other.wait()

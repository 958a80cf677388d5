"""A Ray cluster of ``ray start`` nodes on this machine for the CLI tests, with token authentication, torn down by
process id.

Each node is one ``ray start --block`` process in a session of its own, with its own ports and temp folder, so the
cluster neither joins nor disturbs any other Ray on the machine; tearing down kills the node's process group, then
any process left whose command line names the cluster's temp folder (Ray's workers), and nothing else.
"""

from __future__ import annotations

import json
import os
import secrets
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

#: How long a node may take to come up on a loaded 2-core machine, and how many times it is tried.
START_SECONDS = 120
START_ATTEMPTS = 3
BIN = Path(sys.executable).parent


def free_port() -> int:
    """A TCP port nothing listens on now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def cluster_env(root: Path, token_file: Path) -> dict[str, str]:
    """The environment of every process of the cluster and of its clients: token authentication (the mode and the
    token's file) and ``RAY_TMPDIR``, under which ``ray start`` writes the address that ``--address auto`` reads."""
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(token_file), "RAY_TMPDIR": str(root)}
    env.pop("RAY_ADDRESS", None)
    return env


@dataclass
class LocalCluster:
    """A head node and worker nodes started with ``ray start``; see the module documentation."""

    root: Path
    env: dict[str, str]
    port: int = field(default_factory=free_port)
    dashboard_port: int | None = None
    nodes: list[subprocess.Popen] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)

    @property
    def address(self) -> str:
        """The head's GCS address (what ``ray start --address`` and ``ccg-env train --address`` take)."""
        return f"127.0.0.1:{self.port}"

    @property
    def dashboard(self) -> str:
        """The head's dashboard address (what ``ray job submit --address`` takes)."""
        return f"http://127.0.0.1:{self.dashboard_port}"

    @property
    def temp_dir(self) -> Path:
        return self.root / "ray"

    def node_temp_dir(self, name: str) -> Path:
        """A node's temp folder: the head's under ``RAY_TMPDIR`` (where ``--address auto`` reads its address), each
        other node's its own (nodes on one host sharing one would unpack a job's working dir over each other)."""
        return self.temp_dir if name == "head" else self.root / name

    def start_head(self, num_cpus: int, dashboard: bool = False) -> None:
        """``ray start --head`` with ``num_cpus`` CPUs (and the dashboard, for ``ray job submit``)."""
        def head_args() -> list[str]:
            self.port = free_port()
            args = ["--head", f"--port={self.port}", f"--ray-client-server-port={free_port()}"]
            if not dashboard:
                return [*args, "--include-dashboard=false"]
            self.dashboard_port = free_port()
            return [*args, "--include-dashboard=true", "--dashboard-host=127.0.0.1",
                    f"--dashboard-port={self.dashboard_port}"]

        self._start("head", head_args, num_cpus, {})

    def add_node(self, num_cpus: int, resources: dict[str, float]) -> None:
        """``ray start --address`` of a worker node with ``num_cpus`` CPUs and custom ``resources``."""
        self._start(f"node{len(self.nodes)}", lambda: [f"--address={self.address}"], num_cpus, resources)

    def _start(self, name: str, node_args: Callable[[], list[str]], num_cpus: int,
               resources: dict[str, float]) -> None:
        """Start a node, and once more if it dies starting (Ray gives a node 30 s to register, which a loaded
        machine can miss)."""
        for attempt in range(START_ATTEMPTS):
            log = self.root / f"{name}-{attempt}.log"
            self.logs.append(log)
            command = [str(BIN / "ray"), "start", "--block", *node_args(), f"--num-cpus={num_cpus}", "--num-gpus=0",
                       f"--resources={json.dumps(resources)}", f"--temp-dir={self.node_temp_dir(name)}",
                       f"--dashboard-agent-listen-port={free_port()}", f"--metrics-export-port={free_port()}",
                       f"--object-store-memory={100 * 1024 * 1024}", "--disable-usage-stats"]
            with log.open("wb") as output:
                node = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT, env=self.env,
                                        start_new_session=True)
            self.nodes.append(node)
            if self.wait_for_nodes(len(self.nodes)):
                return
            _signal_group(node, signal.SIGKILL)
            node.wait(timeout=30)
            self.nodes.remove(node)
        raise RuntimeError(f"the local Ray cluster did not reach {len(self.nodes) + 1} nodes:\n{self.log_tail()}")

    def wait_for_nodes(self, count: int) -> bool:
        """Wait until ``ray status`` sees ``count`` nodes alive: True, or False once a node process has ended or
        START_SECONDS have passed."""
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if any(node.poll() is not None for node in self.nodes):
                return False
            status = subprocess.run([str(BIN / "ray"), "status", f"--address={self.address}"], env=self.env,
                                    capture_output=True, text=True, timeout=60)
            if status.returncode == 0 and status.stdout.count(" node_") >= count:
                return True
            time.sleep(2)
        return False

    def log_tail(self, lines: int = 30) -> str:
        """The last lines of every node's log, to read when a start fails."""
        return "\n".join(f"--- {log.name}\n" + "\n".join(log.read_text(errors="replace").splitlines()[-lines:])
                         for log in self.logs if log.is_file())

    def stop(self) -> None:
        """Stop the nodes started here (their process groups) and any Ray worker left naming the cluster's folder."""
        for node in reversed(self.nodes):
            _signal_group(node, signal.SIGTERM)
        for node in reversed(self.nodes):
            try:
                node.wait(timeout=30)
            except subprocess.TimeoutExpired:
                _signal_group(node, signal.SIGKILL)
                node.wait(timeout=30)
        for pid in processes_naming(str(self.root)):
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass


def _signal_group(node: subprocess.Popen, sig: int) -> None:
    try:
        os.killpg(node.pid, sig)
    except ProcessLookupError:
        pass


def processes_naming(text: str) -> list[int]:
    """Process ids (not this one) whose command line contains ``text``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in command:
            found.append(int(entry.name))
    return found


def short_temp_root() -> Path:
    """A fresh folder with a short path (Ray's socket paths must stay under about 100 characters)."""
    return Path(tempfile.mkdtemp(prefix="ccgray", dir="/tmp"))


def new_token_file(root: Path) -> Path:
    """A token file for the cluster (what ``ray get-auth-token --generate`` writes to ``~/.ray/auth_token``)."""
    path = root / "auth_token"
    path.write_text(secrets.token_hex(32), encoding="utf-8")
    path.chmod(0o600)
    return path

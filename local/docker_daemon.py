"""A Docker daemon for `sam local`: Debian's `docker.io`, installed with apt when `dockerd` is missing and
started when none answers. Only a daemon started here is stopped again (`Daemon.stop`)."""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

READY_SECONDS = 60


@dataclass
class Daemon:
    process: subprocess.Popen[bytes] | None  # None: one was running already, and is left running

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def answers() -> bool:
    return shutil.which("docker") is not None and subprocess.run(
        ["docker", "info"], capture_output=True, check=False, timeout=30).returncode == 0


def _as_root(command: list[str]) -> list[str]:
    return command if os.geteuid() == 0 else ["sudo", *command]


def ensure(log: Path) -> Daemon:
    """A daemon that answers `docker info`; starts one (as root) when none does."""
    if answers():
        return Daemon(None)
    if shutil.which("dockerd") is None:
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(_as_root(["apt-get", "update", "-qq"]), check=True, env=env)
        subprocess.run(_as_root(["apt-get", "install", "-y", "-qq", "docker.io"]), check=True, env=env)
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        process = subprocess.Popen(_as_root(["dockerd"]), stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + READY_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"dockerd exited ({process.returncode}): see {log}")
        if answers():
            return Daemon(process)
        time.sleep(0.5)
    Daemon(process).stop()
    raise RuntimeError(f"dockerd did not answer within {READY_SECONDS} s: see {log}")


def bridge_gateway() -> str:
    """The host's address on Docker's default bridge: where a container reaches a service of the host.
    Docker 20.10 leaves the gateway out of the network's IPAM config; it is then the subnet's first
    address, which dockerd gives the bridge."""
    config = json.loads(subprocess.run(
        ["docker", "network", "inspect", "bridge", "--format", "{{json (index .IPAM.Config 0)}}"],
        capture_output=True, text=True, check=True, timeout=30).stdout)
    return str(config.get("Gateway") or ipaddress.ip_network(config["Subnet"])[1])

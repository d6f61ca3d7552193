"""What a container-image function's Dockerfile declares, for the tools that cannot build it (no Docker
here): its base image, the runtime and architecture that image is, the requirements files it installs
and its default command. Only the instructions Bindery's Dockerfiles use are read (ARG, FROM, COPY,
CMD); an ARG in FROM takes its build argument (template.yaml's DockerBuildArgs) or its default."""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

# AWS's Lambda base images: public.ecr.aws/lambda/python:<version>[-<arch>] (x86_64 without a suffix).
_LAMBDA_PYTHON = re.compile(
    r"public\.ecr\.aws/lambda/python:(?P<version>3\.\d+)(?:-(?P<arch>arm64|x86_64))?$")


@dataclass(frozen=True)
class Dockerfile:
    path: Path
    base_image: str
    # The requirements files (relative to the build context) the image COPYs in to pip install.
    requirements: tuple[str, ...]
    command: tuple[str, ...]

    @property
    def runtime(self) -> str | None:
        """The Lambda runtime the base image is (`python3.12`), None for another base image."""
        match = _LAMBDA_PYTHON.match(self.base_image)
        return f"python{match['version']}" if match else None

    @property
    def architecture(self) -> str | None:
        match = _LAMBDA_PYTHON.match(self.base_image)
        return (match["arch"] or "x86_64") if match else None


def _instructions(text: str) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) pairs, with backslash continuations joined and comments dropped."""
    joined = re.sub(r"\\\n", " ", text)
    found: list[tuple[str, str]] = []
    for raw in joined.splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            keyword, _, arguments = line.partition(" ")
            found.append((keyword.upper(), arguments.strip()))
    return found


def _arguments(arguments: str) -> list[str]:
    """An instruction's arguments in either form: exec (a JSON array) or shell."""
    if arguments.startswith("["):
        return [str(part) for part in json.loads(arguments)]
    return shlex.split(arguments)


def _expand(text: str, values: dict[str, str]) -> str:
    """`$NAME` and `${NAME}` replaced by their values (an unknown name stays as written)."""
    return re.sub(r"\$(?:\{(\w+)\}|(\w+))",
                  lambda m: values.get(m[1] or m[2], m[0]), text)


def read(path: Path, build_args: dict[str, str] | None = None) -> Dockerfile:
    given = build_args or {}
    base = ""
    values: dict[str, str] = {}
    requirements: list[str] = []
    command: list[str] = []
    for keyword, arguments in _instructions(path.read_text()):
        if keyword == "ARG":
            name, _, default = arguments.partition("=")
            values[name.strip()] = given.get(name.strip(), default.strip().strip('"'))
        elif keyword == "FROM":
            # The last stage is the image; `FROM image AS name` names a stage.
            base = _expand(arguments.split()[0], values)
        elif keyword == "COPY":
            parts = [part for part in _arguments(arguments) if not part.startswith("--")]
            requirements += [source for source in parts[:-1] if source.endswith("requirements.txt")]
        elif keyword == "CMD":
            command = _arguments(arguments)
    if not base:
        raise ValueError(f"{path}: no FROM instruction")
    return Dockerfile(path, base, tuple(requirements), tuple(command))

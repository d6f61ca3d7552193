"""Are the layer's dependencies installable on the Lambda runtime template.yaml declares?

`sam build` installs layers/shared/requirements.txt for the runtime and architecture of the functions
(and a container image's Dockerfile the requirements files it copies in, for its base image's);
a dependency without a wheel for that platform (or one built for a newer glibc than the runtime's
Amazon Linux has) fails the build or, worse, the first import on Lambda. This check resolves the
requirements with their transitive dependencies through `pip download --only-binary=:all:` for the
target platform, then inspects the tags of every wheel pip chose.

    python -m local.wheels            # (make check-wheels) exit 1 if a wheel is missing or incompatible

Downloads go through pip's cache in .bindery/cache/wheels, so repeated runs only revalidate the index.
pip evaluates environment markers (`; python_version < "3.12"`) for the interpreter that runs it, not
for --python-version (pypa/pip#11664): pass --python with an interpreter of the runtime's version to
resolve exactly what Lambda would get.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from local import dockerfile, template_parameters
from local.template import ROOT, load

CACHE = ROOT / ".bindery" / "cache" / "wheels"


@dataclass(frozen=True)
class Target:
    """A Lambda runtime on one architecture, as wheel tags see it."""

    runtime: str
    python: tuple[int, int]
    arch: str  # the wheel tag's machine: aarch64 or x86_64
    glibc: tuple[int, int]
    os: str

    def __str__(self) -> str:
        return f"{self.runtime}/{self.arch} ({self.os}, glibc {self.glibc[0]}.{self.glibc[1]})"

    @property
    def abi(self) -> str:
        return f"cp{self.python[0]}{self.python[1]}"

    @property
    def platforms(self) -> list[str]:
        """Every manylinux platform tag this target accepts, newest first (what pip's --platform needs:
        pip does not expand manylinux_2_34 into the older tags it implies)."""
        oldest = 5 if self.arch in ("x86_64", "i686") else 17  # aarch64 wheels start at manylinux2014
        tags: list[str] = []
        for minor in range(self.glibc[1], oldest - 1, -1):
            tags.append(f"manylinux_2_{minor}_{self.arch}")
            legacy = {v: k for k, v in _LEGACY_MANYLINUX.items()}.get((2, minor))
            if legacy:
                tags.append(f"{legacy}_{self.arch}")
        return tags


AL2 = ("Amazon Linux 2", (2, 26))
AL2023 = ("Amazon Linux 2023", (2, 34))
# https://docs.aws.amazon.com/lambda/latest/dg/lambda-runtimes.html: the OS behind each runtime.
RUNTIMES: dict[str, tuple[tuple[int, int], tuple[str, tuple[int, int]]]] = {
    "python3.9": ((3, 9), AL2),
    "python3.10": ((3, 10), AL2),
    "python3.11": ((3, 11), AL2),
    "python3.12": ((3, 12), AL2023),
    "python3.13": ((3, 13), AL2023),
    "python3.14": ((3, 14), AL2023),
}
ARCHITECTURES = {"arm64": "aarch64", "x86_64": "x86_64"}
_LEGACY_MANYLINUX = {"manylinux1": (2, 5), "manylinux2010": (2, 12), "manylinux2014": (2, 17)}


def target(runtime: str, architecture: str) -> Target:
    if runtime not in RUNTIMES:
        raise ValueError(f"unknown Lambda runtime {runtime!r} (known: {', '.join(RUNTIMES)})")
    if architecture not in ARCHITECTURES:
        raise ValueError(f"unknown Lambda architecture {architecture!r} (known: {', '.join(ARCHITECTURES)})")
    python, (os_name, glibc) = RUNTIMES[runtime]
    return Target(runtime, python, ARCHITECTURES[architecture], glibc, os_name)


# --- wheel tags ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Wheel:
    name: str
    version: str
    tags: tuple[str, ...]  # expanded: one python-abi-platform triple per combination

    @property
    def tag(self) -> str:
        """The tag triple as the file name has it (compressed tag sets kept)."""
        return "-".join(".".join(dict.fromkeys(part)) for part in zip(*(t.split("-") for t in self.tags),
                                                                       strict=True))


def parse_wheel_filename(filename: str) -> Wheel:
    """`{name}-{version}(-{build})?-{python}-{abi}-{platform}.whl`, compressed tag sets expanded."""
    if not filename.endswith(".whl"):
        raise ValueError(f"not a wheel: {filename}")
    parts = filename[: -len(".whl")].split("-")
    if len(parts) not in (5, 6):
        raise ValueError(f"not a wheel file name: {filename}")
    name, version = parts[0], parts[1]
    pythons, abis, platforms = (part.split(".") for part in parts[-3:])
    tags = tuple(f"{py}-{abi}-{plat}" for py in pythons for abi in abis for plat in platforms)
    return Wheel(name, version, tags)


_MANYLINUX = re.compile(r"^manylinux_(\d+)_(\d+)_(\w+)$")
_LEGACY = re.compile(r"^(manylinux1|manylinux2010|manylinux2014)_(\w+)$")
_PY = re.compile(r"^(py|cp)(\d)(\d*)$")


def _platform_ok(platform: str, target: Target) -> bool:
    if platform == "any":
        return True
    if found := _MANYLINUX.match(platform):
        glibc, arch = (int(found[1]), int(found[2])), found[3]
    elif found := _LEGACY.match(platform):
        glibc, arch = _LEGACY_MANYLINUX[found[1]], found[2]
    else:
        return False  # linux_* (not portable), musllinux_* (musl, not glibc), macOS, Windows
    return arch == target.arch and glibc <= target.glibc


def _interpreter_ok(python: str, abi: str, target: Target) -> bool:
    found = _PY.match(python)
    if not found or int(found[2]) != target.python[0]:
        return False
    kind, minor = found[1], int(found[3]) if found[3] else None
    if kind == "py":
        # pure-Python tags: py3, py3N with N up to the target's minor; no ABI beyond none
        return abi == "none" and (minor is None or minor <= target.python[1])
    if minor is not None and abi == "abi3":
        return minor <= target.python[1]  # the stable ABI works on every later CPython
    # cp3N with its own ABI (or none) only on that very version: not cp313, nor free-threaded cp312t…
    return minor == target.python[1] and abi in ("none", target.abi)


def compatible(tag: str, target: Target) -> bool:
    """Whether one `python-abi-platform` tag triple installs on the target (compressed sets allowed)."""
    pythons, abis, platforms = (part.split(".") for part in tag.split("-"))
    return any(_interpreter_ok(py, abi, target) and _platform_ok(plat, target)
               for py in pythons for abi in abis for plat in platforms)


# --- template ---------------------------------------------------------------------------------------
def _layer_problems(layer: tuple[str, dict[str, Any], dict[str, Any]], runtime: str, arch: str) -> list[str]:
    """What keeps a layer from serving functions on runtime/arch (sam build builds it per its Metadata)."""
    name, props, metadata = layer
    problems: list[str] = []
    if runtime not in props.get("CompatibleRuntimes", [runtime]):
        problems.append(f"{name}: CompatibleRuntimes lacks {runtime}")
    if arch not in props.get("CompatibleArchitectures", [arch]):
        problems.append(f"{name}: CompatibleArchitectures lacks {arch}")
    if metadata.get("BuildMethod", runtime) not in (runtime, "makefile"):
        problems.append(f"{name}: Metadata.BuildMethod {metadata['BuildMethod']} but functions run {runtime}")
    if metadata.get("BuildArchitecture", arch) != arch:
        problems.append(f"{name}: Metadata.BuildArchitecture {metadata['BuildArchitecture']} but functions "
                        f"run on {arch}")
    return problems


def _image_problems(image: dockerfile.Dockerfile, pairs: set[tuple[str, str]], requirements: list[Path],
                    context: Path) -> list[str]:
    """Adds a container image's runtime/architecture and the requirements it installs (what `sam build`
    would otherwise put in layers); what keeps it from being checked."""
    if image.runtime is None or image.architecture is None:
        shown = image.path.relative_to(ROOT) if image.path.is_relative_to(ROOT) else image.path
        return [f"{shown}: FROM {image.base_image} is not an AWS Lambda Python base image"]
    pairs.add((image.runtime, image.architecture))
    requirements += [context / each for each in image.requirements if context / each not in requirements]
    return []


def targets_and_requirements(raw: dict[str, Any]) -> tuple[list[Target], list[Path], list[str]]:
    """The runtime/architecture pairs of the functions, the requirements files of the layers, functions
    and container images, and what in the template contradicts itself (a layer built for another
    runtime), for every architecture the template's Architecture parameter allows. Every
    `functions/*/Dockerfile` is checked, whether or not the template names it yet."""
    pairs: set[tuple[str, str]] = set()
    requirements: list[Path] = []
    problems: list[str] = []
    for variant in template_parameters.architecture_variants(raw):
        found_here: set[tuple[str, str]] = set()
        problems += [each for each in _variant(variant, found_here, requirements) if each not in problems]
        pairs |= found_here
    found = [target(runtime, arch) for runtime, arch in sorted(pairs)]
    return found, requirements, problems


def _variant(raw: dict[str, Any], pairs: set[tuple[str, str]], requirements: list[Path]) -> list[str]:
    """Adds one resolved template's pairs and requirements files; what in it contradicts itself."""
    defaults = (raw.get("Globals") or {}).get("Function") or {}
    layers: list[tuple[str, dict[str, Any], dict[str, Any]]] = []
    problems: list[str] = []
    images: dict[Path, tuple[Path, dict[str, str]]] = {
        path: (ROOT, {}) for path in sorted(ROOT.glob("functions/*/Dockerfile"))}
    for name, resource in raw["Resources"].items():
        props = resource.get("Properties") or {}
        if resource["Type"] == "AWS::Serverless::Function" and props.get("PackageType") == "Image":
            metadata = resource.get("Metadata") or {}
            context = ROOT / str(metadata.get("DockerContext", "."))
            arguments = {str(key): str(value)
                         for key, value in (metadata.get("DockerBuildArgs") or {}).items()}
            images[context / str(metadata.get("Dockerfile", "Dockerfile"))] = (context, arguments)
        elif resource["Type"] == "AWS::Serverless::Function":
            runtime = props.get("Runtime", defaults.get("Runtime"))
            if not isinstance(runtime, str):
                problems.append(f"{name}: no Runtime")
                continue
            for arch in props.get("Architectures", defaults.get("Architectures", ["x86_64"])):
                pairs.add((runtime, arch))
            code = ROOT / str(props.get("CodeUri", ""))
            if (code / "requirements.txt").is_file() and code / "requirements.txt" not in requirements:
                requirements.append(code / "requirements.txt")
        elif resource["Type"] == "AWS::Serverless::LayerVersion":
            layers.append((name, props, resource.get("Metadata") or {}))
            content = ROOT / str(props.get("ContentUri", ""))
            if (content / "requirements.txt").is_file() and content / "requirements.txt" not in requirements:
                requirements.append(content / "requirements.txt")
    for path, (context, arguments) in images.items():
        problems += _image_problems(dockerfile.read(path, arguments), pairs, requirements, context)
    for runtime, arch in sorted(pairs):
        for layer in layers:
            problems += _layer_problems(layer, runtime, arch)
    return problems


# --- pip --------------------------------------------------------------------------------------------
def pip_download_command(target: Target, requirements: list[Path], dest: Path,
                         python: str = sys.executable) -> list[str]:
    command = [python, "-m", "pip", "download", "--disable-pip-version-check", "--progress-bar", "off",
               "--only-binary=:all:", "--implementation", "cp",
               "--python-version", f"{target.python[0]}.{target.python[1]}", "--abi", target.abi,
               "--dest", str(dest), "--cache-dir", str(CACHE)]
    for platform in target.platforms:
        command += ["--platform", platform]
    for requirement in requirements:
        command += ["-r", str(requirement)]
    return command


def check(target: Target, requirements: list[Path], python: str = sys.executable) -> bool:
    shown = [str(r.relative_to(ROOT)) if r.is_relative_to(ROOT) else str(r) for r in requirements]
    print(f"\n{target}: {', '.join(shown)}")
    CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="bindery-wheels-") as scratch:
        dest = Path(scratch)
        result = subprocess.run(pip_download_command(target, requirements, dest, python),
                                capture_output=True, text=True, timeout=900, check=False)
        if result.returncode != 0:
            output = [line for line in (result.stdout + result.stderr).splitlines()
                      if line.strip() and not line.startswith("WARNING: Location ")]
            print("  pip could not resolve every dependency as a wheel for this platform:")
            for line in output[-15:]:
                print(f"    {line}")
            return False
        downloaded = sorted(dest.iterdir())
        wheels = [parse_wheel_filename(path.name) for path in downloaded if path.suffix == ".whl"]
        others = [path.name for path in downloaded if path.suffix != ".whl"]
    rows = [(w.name, w.version, w.tag, "ok" if any(compatible(t, target) for t in w.tags) else "INCOMPATIBLE")
            for w in wheels]
    rows += [(name, "", "", "NOT A WHEEL") for name in others]
    width = [max([len(h), *(len(r[i]) for r in rows)]) for i, h in enumerate(("package", "version", "tag"))]
    print(f"  {'package':<{width[0]}}  {'version':<{width[1]}}  {'tag':<{width[2]}}  status")
    for name, version, tag, status in sorted(rows, key=lambda r: r[0].lower()):
        print(f"  {name:<{width[0]}}  {version:<{width[1]}}  {tag:<{width[2]}}  {status}")
    return bool(rows) and all(row[3] == "ok" for row in rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m local.wheels", description=__doc__.split("\n")[0])
    parser.add_argument("--python", default=sys.executable,
                        help="interpreter that runs pip (its version decides environment markers)")
    args = parser.parse_args(argv)
    targets, requirements, problems = targets_and_requirements(load().raw)
    for problem in problems:
        print(f"template.yaml: {problem}", file=sys.stderr)
    if problems:
        return 2
    if not requirements:
        print("no requirements.txt in any layer or function: nothing to check")
        return 0
    ok = True
    for each in targets:
        if sys.version_info[:2] != each.python and args.python == sys.executable:
            print(f"note: pip runs on Python {sys.version_info[0]}.{sys.version_info[1]}, which decides "
                  f"environment markers; the runtime is {each.python[0]}.{each.python[1]} (see --python)")
        ok = check(each, requirements, args.python) and ok
    print("\nevery dependency has a compatible wheel" if ok else "\nsome dependencies cannot be installed "
          "on the Lambda runtime: pin versions that publish compatible wheels")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

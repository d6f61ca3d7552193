"""Mutation testing (`make mutation`): mutmut over the modules where a silent regression loses data or
opens access, each against only the fast test files that are about it (docs/testing.md, "Mutation
testing").

    python -m local.mutation                     # every module, one after the other
    python -m local.mutation pagination positions --max-children 2
    python -m local.mutation --changed --max-children 2   # CI: the modules changed since their last run

mutmut names a mutant after its file's path (`layers.shared.bindery.pagination…`) but records the tests
that reach a function under the module's import name (`bindery.platform.pagination…`), and only understands a
package at the top level or under `src/`. So each module runs in its own work directory under
`.bindery/mutation/<module>/`, where `bindery` sits at the top level (a link to layers/shared/bindery)
with the tests, `local`, `functions` and template.yaml beside it, and a pyproject.toml made from ours
(the same pytest settings, without layers/shared on the path, so only the mutated copy can be imported).
Each run starts from a fresh `mutants/` directory: results cached from an older test suite would be stale.

Every surviving mutant must be listed in docs/testing.md's table, as equivalent (with the reason) or as
left alive (with the reason); the run fails (exit 1) on a survivor the table does not list, on a mutant no
test reaches, or when fewer than 90% of a module's non-equivalent mutants are killed. A module that
passes has its row of the kill-rate table rewritten, with its fingerprint (local/mutation_results.py).

Adding a module is one entry of MODULES (and its line in docs/testing.md's table of modules): CI runs it
at once, since no fingerprint of it is recorded yet.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

import tomli_w

from local.mutation_results import Result, fingerprint, record, recorded
from local.template import ROOT

WORK = ROOT / ".bindery" / "mutation"
DOC = ROOT / "docs" / "testing.md"
TARGET = 0.90
# What a module's work directory holds besides `bindery`: mutmut copies these into its `mutants/`.
_BESIDE = ("tests", "local", "functions", "template.yaml")
_LAYER = "layers/shared"


@dataclass(frozen=True)
class Module:
    """Source files to mutate (relative to layers/shared) and the test files that are about them."""

    files: tuple[str, ...]
    tests: tuple[str, ...]

    def fingerprint(self) -> str:
        return fingerprint(ROOT, (*(f"{_LAYER}/{path}" for path in self.files), *self.tests))


MODULES: dict[str, Module] = {
    "pagination": Module(("bindery/platform/pagination.py",), ("tests/test_pagination.py",)),
    "positions": Module(("bindery/engines/content/positions.py",), ("tests/test_positions.py",)),
    "merge-fields": Module(("bindery/engines/content/merge/fields.py",),
                           ("tests/content/test_merge_presence.py",)),
    "permissions": Module(("bindery/domain/access/role_order.py", "bindery/domain/access/content.py"),
                          ("tests/test_effective_role.py", "tests/repository/test_access_resolution.py")),
    "sso-binding": Module(("bindery/domain/sso/account_binding.py",), ("tests/test_sso_account_binding.py",)),
    "site-urls": Module(("bindery/engines/site_pages/rendering/urls.py",),
                        ("tests/site_pages/rendering/test_document_html_urls.py",)),
}

# A row of the survivors' table: | `bindery.module.x_function__mutmut_N` | equivalent | why |
_ROW = re.compile(r"^\|\s*`(?P<name>bindery\.[^`]+__mutmut_\d+)`\s*\|\s*(?P<verdict>[^|]+?)\s*\|")
_RESULT = re.compile(r"^\s*(?P<name>\S+__mutmut_\d+):\s*(?P<status>.+?)\s*$")


def documented() -> dict[str, str]:
    """The survivors docs/testing.md lists, by mutant name, with their verdict (equivalent or alive)."""
    rows = (_ROW.match(line) for line in DOC.read_text().splitlines()) if DOC.exists() else ()
    return {row["name"]: row["verdict"].strip().lower() for row in rows if row}


def _pytest_config() -> dict[str, object]:
    """Our pytest settings for a work directory: `bindery` is at its top level, so layers/shared goes."""
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    return {"pythonpath": [path for path in options["pythonpath"] if path != _LAYER],
            "addopts": "-q -p no:cacheprovider", "markers": options.get("markers", [])}


def configuration(module: Module) -> str:
    """The work directory's pyproject.toml: what mutmut mutates and runs, and our pytest settings."""
    mutmut = {"source_paths": ["bindery"], "only_mutate": list(module.files),
              "also_copy": [*_BESIDE, "pyproject.toml"],
              "pytest_add_cli_args_test_selection": list(module.tests),
              # The tests of a module are deterministic; no git: the work directory is not a checkout.
              "use_git_change_detection": False}
    return tomli_w.dumps({"tool": {"mutmut": mutmut, "pytest": {"ini_options": _pytest_config()}}})


def prepare(name: str, module: Module) -> Path:
    """The module's work directory, with a fresh `mutants/`."""
    root = WORK / name
    shutil.rmtree(root, ignore_errors=True)
    root.mkdir(parents=True)
    (root / "bindery").symlink_to(ROOT / _LAYER / "bindery", target_is_directory=True)
    for entry in _BESIDE:
        (root / entry).symlink_to(ROOT / entry)
    (root / "pyproject.toml").write_text(configuration(module))
    return root


def run(name: str, module: Module, max_children: int) -> dict[str, str]:
    """Every mutant of the module, by name, with mutmut's verdict (killed, survived, timeout…)."""
    root = prepare(name, module)
    mutmut = str(Path(sys.executable).with_name("mutmut"))
    log = root / "mutmut.log"
    with log.open("w") as out:
        ran = subprocess.run([mutmut, "run", "--max-children", str(max_children)], cwd=root, stdout=out,
                             stderr=subprocess.STDOUT, check=False)
    if ran.returncode != 0:
        sys.exit(f"{name}: mutmut failed (exit {ran.returncode}); see {log}")
    listed = subprocess.run([mutmut, "results", "--all", "true"], cwd=root, capture_output=True, text=True,
                            check=True)
    return {found["name"]: found["status"]
            for found in map(_RESULT.match, listed.stdout.splitlines()) if found}


def report(name: str, results: dict[str, str], verdicts: dict[str, str]) -> tuple[Result, list[str]]:
    """Print the module's line of the kill-rate table; the problems that fail the run."""
    survived = sorted(mutant for mutant, status in results.items() if status == "survived")
    equivalent = [mutant for mutant in survived if verdicts.get(mutant, "").startswith("equivalent")]
    killed = sum(status in ("killed", "timeout") for status in results.values())
    counted = len(results) - len(equivalent)
    rate = killed / counted if counted else 1.0
    print(f"{name}: {len(results)} mutants, {killed} killed, {len(equivalent)} equivalent, "
          f"{len(survived) - len(equivalent)} alive: {rate:.1%} of the non-equivalent killed")
    problems = [f"{name}: {mutant} survived and docs/testing.md does not list it"
                for mutant in survived if mutant not in verdicts]
    problems += [f"{name}: {mutant}: {status}" for mutant, status in sorted(results.items())
                 if status not in ("killed", "timeout", "survived")]
    if rate < TARGET:
        problems.append(f"{name}: {rate:.1%} of the non-equivalent mutants killed, under {TARGET:.0%}")
    for mutant in sorted(set(verdicts) - set(survived)):
        if mutant.startswith(tuple(path[:-3].replace("/", ".") + "." for path in MODULES[name].files)):
            print(f"  (docs/testing.md lists {mutant}, which no longer survives)")
    result = Result(name, len(results), killed, len(equivalent), len(survived) - len(equivalent), rate,
                    MODULES[name].fingerprint())
    return result, problems


def changed() -> list[str]:
    """The modules whose recorded fingerprint is not their own now (or that have none recorded)."""
    known = recorded(DOC)
    return [name for name, module in MODULES.items() if known.get(name) != module.fingerprint()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="*", help=f"of {', '.join(MODULES)} (default: all)")
    parser.add_argument("--max-children", type=int, default=1, help="parallel mutants (CPU is shared)")
    parser.add_argument("--changed", action="store_true",
                        help="only the modules whose code or tests changed since their recorded run")
    args = parser.parse_args(argv)
    if unknown := set(args.modules) - set(MODULES):
        parser.error(f"unknown modules: {', '.join(sorted(unknown))}")
    names = args.modules or list(MODULES)
    if args.changed:
        due = set(changed())
        for name in names:
            if name not in due:
                print(f"{name}: unchanged since its recorded run (fingerprint {MODULES[name].fingerprint()})")
        names = [name for name in names if name in due]
    verdicts = documented()
    problems: list[str] = []
    for name in names:
        result, found = report(name, run(name, MODULES[name], args.max_children), verdicts)
        if not found:
            record(DOC, result)
        problems += found
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

"""The `xmlsec1` binary that pysaml2 signs with, for the SAML tests where pysaml2 plays the identity
provider (tests/api/sso/test_sso_pysaml2.py; docs/sso.md).

`xmlsec1` on PATH is used as it is. Otherwise Debian's packages (xmlsec1, libxmlsec1,
libxmlsec1-openssl) are fetched once with `apt-get download` — no root needed — unpacked under
.bindery/tools/xmlsec1 and run through a wrapper that points the loader at their libraries. A machine
with neither fails the tests that need it, visibly.
"""

from __future__ import annotations

import platform
import shutil
import subprocess
import tempfile
from pathlib import Path

from local.template import ROOT

HOME = ROOT / ".bindery" / "tools" / "xmlsec1"
PACKAGES = ("xmlsec1", "libxmlsec1", "libxmlsec1-openssl")


def xmlsec1_binary() -> str:
    found = shutil.which("xmlsec1")
    if found:
        return found
    wrapper = HOME / "xmlsec1"
    if not wrapper.exists():
        _install(wrapper)
    return str(wrapper)


def _install(wrapper: Path) -> None:
    if shutil.which("apt-get") is None or shutil.which("dpkg-deb") is None:
        raise RuntimeError("xmlsec1 is not on PATH and apt-get/dpkg-deb are missing to fetch Debian's; "
                           "install xmlsec1 (the SAML IdP tests need it)")
    root = HOME / "root"
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as downloads:
        subprocess.run(["apt-get", "download", *PACKAGES], cwd=downloads, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=300)
        for package in sorted(Path(downloads).glob("*.deb")):
            subprocess.run(["dpkg-deb", "-x", str(package), str(root)], check=True, timeout=120)
    libraries = root / "usr" / "lib" / f"{platform.machine()}-linux-gnu"
    # Written last: its presence says the unpacking finished.
    wrapper.write_text("#!/bin/sh\n"
                       f'LD_LIBRARY_PATH="{libraries}${{LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}}" '
                       f'exec "{root}/usr/bin/xmlsec1" "$@"\n')
    wrapper.chmod(0o755)

#!/usr/bin/env bash
# Builds the local stand-in for AWS's Lambda Python base image (public.ecr.aws/lambda/python:3.12-*),
# which cannot be pulled here: a Debian root filesystem (debootstrap, from the mirror apt is configured
# with), the CPython 3.12 that local/python312.sh finds, at the path it was built for (its libpython is
# found through an absolute run path) and linked as /var/lang/bin/python3.12, awslambdaric
# (requirements.txt) in /var/runtime, and the same bootstrap and entrypoint layout as AWS's images.
# SAM CLI adds its own runtime interface emulator (/var/rapid/aws-lambda-rie) when it runs a function.
#
# Prints the image's tag, bindery/lambda-python:3.12-<architecture of this host>. Cached by that tag:
# rebuilt only when the recipe (this directory) or the interpreter changed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
case "$(uname -m)" in
    x86_64) arch=x86_64 ;;
    aarch64) arch=arm64 ;;
    *) echo "no Lambda architecture for $(uname -m)" >&2; exit 1 ;;
esac
tag="bindery/lambda-python:3.12-$arch"
python="$("$here/../python312.sh")"
prefix="$("$python" -c 'import sys; print(sys.base_prefix)')"
if [[ "$prefix" == /usr ]]; then
    echo "$python is the system's own Python ($prefix): the image needs a self-contained install such" \
         "as pyenv's (docs/local-runner.md, \"sam local\")." >&2
    exit 1
fi
recipe="$( (cat "$here/build.sh" "$here/bootstrap" "$here/lambda-entrypoint.sh" "$here/requirements.txt"; \
            echo "$prefix"; "$python" -VV) | sha1sum | cut -c1-12)"
if [[ "$(docker image inspect -f '{{ index .Config.Labels "bindery.recipe" }}' "$tag" 2>/dev/null)" == "$recipe" ]]; then
    echo "$tag"; exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
rootfs="$work/rootfs"
command -v debootstrap >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap; } >&2
# The first Debian mirror apt knows (deb822 .sources or a one-line sources.list).
mirror="$(sed -n 's/^URIs: *\([^ ]*\).*/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null | grep -v security | head -1 || true)"
[[ -n "$mirror" ]] || mirror="$(awk '$1 == "deb" && $0 !~ /security/ {print $2; exit}' /etc/apt/sources.list 2>/dev/null)"
[[ -n "$mirror" ]] || { echo "no Debian mirror in apt's sources" >&2; exit 1; }
# The Debian packages of the shared libraries the interpreter's extension modules load (sqlite3, ssl,
# ctypes…), from the host's package database; tkinter is left out, and X11 with it.
libraries="$(ldd "$prefix"/lib/python3.12/lib-dynload/*.so "$prefix"/lib/libpython3.12.so* 2>/dev/null \
    | grep -v _tkinter | awk '/=> \//{print $3}' | sort -u | while read -r file; do
        dpkg -S "$file" 2>/dev/null || dpkg -S "$(realpath "$file")" 2>/dev/null || true
    done | grep -v -e libtk -e libx -e libfontconfig -e libfreetype -e libpng | cut -d: -f1 | sort -u | paste -sd, -)"
echo "Building $tag: Debian bookworm from $mirror, $("$python" -V) from $prefix" >&2
debootstrap --variant=minbase --include="ca-certificates,$libraries" bookworm "$rootfs" "$mirror" \
    >"$work/debootstrap.log" 2>&1 \
    || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
rm -rf "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/*

mkdir -p "$rootfs$prefix" "$rootfs/var/lang/bin" "$rootfs/var/runtime" "$rootfs/var/task" "$rootfs/opt"
# The interpreter and its standard library, without its test suite or anything installed beside it.
tar -C "$prefix" --exclude=./lib/python3.12/test --exclude=./lib/python3.12/site-packages \
    --exclude='__pycache__' --exclude='_tkinter*' -cf - . | tar -C "$rootfs$prefix" -xf -
# pip, which AWS's images have too (the conversations image's Dockerfile runs it).
site="lib/python3.12/site-packages"
mkdir -p "$rootfs$prefix/$site"
(cd "$prefix/$site" && tar --exclude='__pycache__' -cf - pip pip-*.dist-info) | tar -C "$rootfs$prefix/$site" -xf -
for name in python3.12 python3 python; do ln -sf "$prefix/bin/python3.12" "$rootfs/var/lang/bin/$name"; done
printf '#!/bin/sh\nexec /var/lang/bin/python3.12 -m pip "$@"\n' >"$rootfs/var/lang/bin/pip"
chmod 0755 "$rootfs/var/lang/bin/pip"
# The host's certificate authorities, so that pip in an image build reaches the registry as the host does.
cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/ca-certificates.crt"
"$python" -m pip install --quiet --disable-pip-version-check --no-compile --only-binary=:all: \
    --target "$rootfs/var/runtime" -r "$here/requirements.txt" >&2
install -m 0755 "$here/bootstrap" "$rootfs/var/runtime/bootstrap"
install -m 0755 "$here/lambda-entrypoint.sh" "$rootfs/lambda-entrypoint.sh"
# Bytecode of the standard library and the runtime client, as AWS's images ship it.
chroot "$rootfs" /var/lang/bin/python3.12 -m compileall -q "$prefix/lib/python3.12" /var/runtime >/dev/null || true

tar -C "$rootfs" -cf - . | docker import \
    --change 'ENV LANG=C.UTF-8 TZ=:/etc/localtime PATH=/var/lang/bin:/usr/local/bin:/usr/bin:/bin' \
    --change 'ENV LAMBDA_TASK_ROOT=/var/task LAMBDA_RUNTIME_DIR=/var/runtime' \
    --change 'ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt PIP_DISABLE_PIP_VERSION_CHECK=1' \
    --change 'ENV PYTHONPATH=/opt/python/lib/python3.12/site-packages:/opt/python:/var/runtime' \
    --change 'WORKDIR /var/task' \
    --change 'ENTRYPOINT ["/lambda-entrypoint.sh"]' \
    --change "LABEL bindery.recipe=$recipe" \
    - "$tag" >/dev/null
echo "$tag"

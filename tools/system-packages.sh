#!/usr/bin/env bash
# Install the Debian/Ubuntu packages the game (play) or the test suite (test) needs, only
# those missing. Works as root without sudo, and as a user with sudo.
# Usage: tools/system-packages.sh play|test
set -euo pipefail
case "${1:-}" in
  play) packages=(python3-venv) ;;
  # A virtual X server and xdotool for the end-to-end tests, x11-utils and imagemagick to
  # look at its windows, binutils for the frozen build's `strip` and the .deb's dependencies,
  # ShellCheck (actionlint runs it on the workflows' scripts too), desktop-file-utils and
  # appstream to validate the menu entries and the Flatpak's metainfo (tests/project/test_release.py),
  # redis-server and haproxy for the server's shared-store tests (tests/server/test_store.py),
  # weston for a headless Wayland desktop scaled 200 % (tests/e2e/test_e2e_wayland.py).
  test) packages=(python3-venv xvfb xdotool imagemagick x11-utils binutils shellcheck
                  desktop-file-utils appstream redis-server haproxy weston) ;;
  *) echo "usage: $0 play|test" >&2; exit 2 ;;
esac
missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]} == 0)); then
  exit 0
fi
if ! command -v apt-get >/dev/null; then
  echo "Please install these packages with your system's package manager: ${missing[*]}" >&2
  exit 1
fi
as_root=()
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "Installing ${missing[*]} needs root: run this as root, or install sudo." >&2
    exit 1
  fi
  as_root=(sudo)
fi
echo "Installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
"${as_root[@]}" apt-get update -qq
"${as_root[@]}" apt-get install -y -qq "${missing[@]}"

#!/usr/bin/env bash
# Install the onedir build of Briscola for the current user, so that it appears in the desktop's
# application menu with its icon (or remove it again with --uninstall).
#
#   packaging/install-linux.sh [--from DIR] [--system] [--uninstall] [--dry-run]
#
#   --from DIR   the onedir build to install (default: the briscola folder next to this
#                script, as in the release tarball, else the repository's dist/briscola)
#   --system     install for every user: /opt/briscola, /usr/local/bin/briscola and
#                /usr/local/share/{applications,icons} (run as root); default: for the current
#                user: ~/.local/opt/briscola, ~/.local/bin/briscola and $XDG_DATA_HOME
#                (~/.local/share)/{applications,icons}
#   --uninstall  remove what an install put there
#   --dry-run    print what would be done, change nothing
#
# What an install does:
#   1. copies DIR to <opt>/briscola (replacing an earlier install);
#   2. links <bin>/briscola to <opt>/briscola/briscola;
#   3. copies the icons (assets/icon/icon-<N>.png of the build) to
#      <share>/icons/hicolor/<N>x<N>/apps/briscola.png, and briscola.svg to .../scalable/apps/;
#   4. writes <share>/applications/briscola.desktop from packaging/briscola.desktop, with Exec
#      and TryExec set to the installed executable's absolute path;
#   5. refreshes the menu and icon caches where the tools for that exist.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
from=""
mode=user
action=install
dry_run=0

usage() { sed -n '2,25p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --from) from="${2:?--from needs a folder}"; shift 2 ;;
        --from=*) from="${1#--from=}"; shift ;;
        --system) mode=system; shift ;;
        --uninstall) action=uninstall; shift ;;
        --dry-run) dry_run=1; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install-linux.sh: unknown option: $1 (see --help)" >&2; exit 2 ;;
    esac
done

if [ "$mode" = system ]; then
    opt=/opt
    bin=/usr/local/bin
    share=/usr/local/share
else
    opt="$HOME/.local/opt"
    bin="$HOME/.local/bin"
    share="${XDG_DATA_HOME:-$HOME/.local/share}"
fi
app="$opt/briscola"
apps="$share/applications"
icons="$share/icons/hicolor"

run() {
    if [ "$dry_run" = 1 ]; then
        printf '+ %s\n' "$*"
    else
        "$@"
    fi
}

refresh_caches() {
    if command -v update-desktop-database >/dev/null 2>&1; then
        run update-desktop-database -q "$apps" || true
    fi
    if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f "$icons/index.theme" ]; then
        run gtk-update-icon-cache -q -t "$icons" || true
    fi
}

# Refuse to delete a folder that is not a Briscola install.
looks_installed() {
    [ -x "$1/briscola" ] && [ -d "$1/_internal/assets" ]
}

uninstall() {
    local removed=0
    if [ -e "$app" ]; then
        if looks_installed "$app"; then
            run rm -rf -- "$app"
            removed=1
        else
            echo "install-linux.sh: $app is not a Briscola install: left alone" >&2
        fi
    fi
    if [ -L "$bin/briscola" ] && [ "$(readlink "$bin/briscola")" = "$app/briscola" ]; then
        run rm -f -- "$bin/briscola"
    fi
    if [ -f "$apps/briscola.desktop" ]; then
        run rm -f -- "$apps/briscola.desktop"
    fi
    local icon
    for icon in "$icons"/*/apps/briscola.png "$icons"/scalable/apps/briscola.svg; do
        if [ -f "$icon" ]; then
            run rm -f -- "$icon"
        fi
    done
    refresh_caches
    if [ "$removed" = 1 ]; then
        echo "Briscola removed from $app"
    else
        echo "Briscola was not installed in $app (menu entry and icons removed if present)"
    fi
}

install() {
    if [ -z "$from" ]; then
        # The release tarball has the build next to this script; the repository in dist/.
        if looks_installed "$here/briscola"; then
            from="$here/briscola"
        else
            from="$here/../dist/briscola"
        fi
    fi
    from="$(cd "$from" 2>/dev/null && pwd)" || {
        echo "install-linux.sh: no build folder: build it first (pyinstaller build.spec)" >&2
        exit 1
    }
    if ! looks_installed "$from"; then
        echo "install-linux.sh: $from is not a onedir build of Briscola" >&2
        exit 1
    fi
    local template="$here/briscola.desktop"
    if [ ! -f "$template" ]; then
        echo "install-linux.sh: $template is missing" >&2
        exit 1
    fi
    if [ "$from" = "$app" ]; then
        echo "install-linux.sh: $from is already the installed copy" >&2
        exit 1
    fi

    if [ -e "$app" ]; then
        if ! looks_installed "$app"; then
            echo "install-linux.sh: $app exists and is not a Briscola install" >&2
            exit 1
        fi
        run rm -rf -- "$app"
    fi
    run mkdir -p -- "$opt" "$bin" "$apps"
    run cp -a -- "$from" "$app"
    run ln -sfn -- "$app/briscola" "$bin/briscola"

    local png size
    for png in "$from"/_internal/assets/icon/icon-*.png; do
        [ -f "$png" ] || continue
        size="${png##*/icon-}"
        size="${size%.png}"
        run mkdir -p -- "$icons/${size}x${size}/apps"
        run cp -- "$png" "$icons/${size}x${size}/apps/briscola.png"
    done
    if [ -f "$from/_internal/assets/icon/briscola.svg" ]; then
        run mkdir -p -- "$icons/scalable/apps"
        run cp -- "$from/_internal/assets/icon/briscola.svg" "$icons/scalable/apps/briscola.svg"
    fi

    local desktop="$apps/briscola.desktop"
    if [ "$dry_run" = 1 ]; then
        printf '+ write %s (Exec=%s)\n' "$desktop" "$app/briscola"
    else
        sed -e "s|^Exec=.*|Exec=\"$app/briscola\"|" -e "s|^TryExec=.*|TryExec=$app/briscola|" \
            "$template" >"$desktop"
        chmod 644 "$desktop"
    fi
    refresh_caches

    echo "Briscola installed in $app"
    echo "  command:    $bin/briscola"
    echo "  menu entry: $desktop"
    case ":$PATH:" in
        *":$bin:"*) ;;
        *) echo "  note: $bin is not on PATH; the menu entry works anyway" ;;
    esac
}

"$action"

#!/usr/bin/env bash
# Sign and notarize the macOS build with a Developer ID (docs/building.md, "Signing").
# The release workflow runs it only when the secrets exist; without them the .app keeps
# PyInstaller's ad-hoc signature and Gatekeeper asks the player to confirm (see the README).
#
#   packaging/macos/sign.sh keychain            # import the certificate into a new keychain
#   packaging/macos/sign.sh app dist/Briscola.app
#   packaging/macos/sign.sh dmg release/Briscola-0.1.0-macos-arm64.dmg   # sign, notarize, staple
#
# Environment (the workflow maps the repository's secrets onto these names):
#   MACOS_CERTIFICATE           the "Developer ID Application" certificate and key, a .p12 in base64
#   MACOS_CERTIFICATE_PASSWORD  its password
#   MACOS_SIGNING_IDENTITY      e.g. "Developer ID Application: Jane Doe (AB12CD34EF)"
#   APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD   notarization (an app-specific password);
#                               without them "dmg" signs the image but does not notarize it
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
entitlements="$here/entitlements.plist"
keychain="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/briscola-signing.keychain-db"

need() {
    local name
    for name in "$@"; do
        if [ -z "${!name:-}" ]; then
            echo "sign.sh: $name is not set" >&2
            exit 2
        fi
    done
}

make_keychain() {
    need MACOS_CERTIFICATE MACOS_CERTIFICATE_PASSWORD
    local password folder p12
    password="$(openssl rand -hex 24)"
    folder="$(mktemp -d)"
    p12="$folder/certificate.p12"
    printf '%s' "$MACOS_CERTIFICATE" | base64 --decode >"$p12"
    security create-keychain -p "$password" "$keychain"
    security set-keychain-settings -lut 3600 "$keychain"
    security unlock-keychain -p "$password" "$keychain"
    security import "$p12" -k "$keychain" -P "$MACOS_CERTIFICATE_PASSWORD" -T /usr/bin/codesign
    security set-key-partition-list -S apple-tool:,apple: -s -k "$password" "$keychain" >/dev/null
    # Keep the login keychain in the search list, add ours in front.
    local existing
    existing="$(security list-keychains -d user | tr -d '"')"
    # shellcheck disable=SC2086  # one keychain path per word
    security list-keychains -d user -s "$keychain" $existing
    rm -rf "$folder"
    echo "imported the signing certificate into $keychain"
}

sign_app() {
    need MACOS_SIGNING_IDENTITY
    local app="${1:?sign.sh app: which .app?}"
    # PyInstaller 6 lays out the .app so that it can be signed as a whole; the hardened runtime
    # and a secure timestamp are what notarization requires.
    codesign --force --deep --timestamp --options runtime \
        --entitlements "$entitlements" --sign "$MACOS_SIGNING_IDENTITY" "$app"
    codesign --verify --deep --strict --verbose=2 "$app"
    echo "signed $app"
}

sign_dmg() {
    need MACOS_SIGNING_IDENTITY
    local dmg="${1:?sign.sh dmg: which .dmg?}"
    codesign --force --timestamp --sign "$MACOS_SIGNING_IDENTITY" "$dmg"
    if [ -z "${APPLE_ID:-}" ] || [ -z "${APPLE_TEAM_ID:-}" ] || [ -z "${APPLE_APP_PASSWORD:-}" ]; then
        echo "signed $dmg; not notarized (APPLE_ID, APPLE_TEAM_ID, APPLE_APP_PASSWORD unset)"
        return 0
    fi
    xcrun notarytool submit "$dmg" --apple-id "$APPLE_ID" --team-id "$APPLE_TEAM_ID" \
        --password "$APPLE_APP_PASSWORD" --wait --timeout 30m
    xcrun stapler staple "$dmg"
    xcrun stapler validate "$dmg"
    spctl --assess --type open --context context:primary-signature --verbose=2 "$dmg"
    echo "signed, notarized and stapled $dmg"
}

case "${1:-}" in
    keychain) make_keychain ;;
    app) sign_app "${2:-}" ;;
    dmg) sign_dmg "${2:-}" ;;
    *) echo "usage: $0 keychain | app PATH.app | dmg PATH.dmg" >&2; exit 2 ;;
esac

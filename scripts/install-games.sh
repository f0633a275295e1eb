#!/usr/bin/env bash
# Installs the third-party games that Pictor's shipped profiles run (profiles/*.profile), on
# demand: they are large (SuperTuxKart alone is about 700 MB) and never part of `make demo` or
# `make test`. Debian/Ubuntu only (apt-get).
#   scripts/install-games.sh              list the games and whether each is installed
#   scripts/install-games.sh neverball    install one (names as in profiles/, or their packages)
#   scripts/install-games.sh all          install all four
set -euo pipefail

# profile name → Debian package
declare -A PACKAGE=(
  [extremetuxracer]=extremetuxracer
  [neverball]=neverball
  [supertuxkart]=supertuxkart
  [warzone2100]=warzone2100
)

installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }

if [ $# -eq 0 ]; then
  for name in "${!PACKAGE[@]}"; do
    pkg=${PACKAGE[$name]}
    if installed "$pkg"; then state="installed"; else state="not installed"; fi
    # The game and its -data package, as apt reports them (KiB); unknown when apt has no index.
    size=$(apt-cache show "$pkg" "$pkg-data" 2>/dev/null |
           awk '/^Package:/ {p=$2} /^Installed-Size:/ && !seen[p]++ {s+=$2} END {if (s) print int(s/1024) " MB"}')
    printf '%-16s package %-16s %-14s %s\n' "$name" "$pkg" "$state" "${size:-size unknown}"
  done | sort
  echo "usage: $0 NAME... | all" >&2
  exit 0
fi

wanted=()
for arg in "$@"; do
  if [ "$arg" = all ]; then
    wanted+=("${PACKAGE[@]}")
  elif [ -n "${PACKAGE[$arg]:-}" ]; then
    wanted+=("${PACKAGE[$arg]}")
  else
    echo "install-games: unknown game '$arg' (known: ${!PACKAGE[*]}, all)" >&2
    exit 2
  fi
done

missing=()
for pkg in "${wanted[@]}"; do installed "$pkg" || missing+=("$pkg"); done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-games: already installed: ${wanted[*]}" >&2
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-games: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
# Debian puts games in /usr/games, which is often not on root's PATH; pictor looks there too.
echo "install-games: done; try: pictor run profile:${1/all/neverball} --duration 20s" >&2

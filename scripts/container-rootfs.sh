#!/usr/bin/env bash
# Builds the root file system `pictor run --container podman --rootfs DIR` gives podman, from this
# machine's own installed files (no registry is needed, docs/resources.md "Containers"):
#   scripts/container-rootfs.sh DIR
# DIR gets the skeleton of a merged-/usr Debian system: bin, lib, lib64, sbin as links into usr/,
# an empty usr/ (Pictor mounts the host's /usr there read-only when the container starts, so the
# programs inside are the host's own, byte for byte), the few /etc files programs read (users,
# the dynamic loader's cache, fonts), and empty /tmp, /run, /var. Rerunning it refreshes /etc.
set -euo pipefail

if [ $# -ne 1 ] || [ -z "$1" ]; then
  echo "usage: $0 DIR" >&2
  exit 2
fi
dir=$1
mkdir -p "$dir"
cd "$dir"
mkdir -p usr etc proc dev sys run tmp root var/tmp var/lib/xkb
chmod 1777 tmp var/tmp
for link in bin lib lib32 lib64 sbin; do
  if [ -L "/$link" ]; then
    ln -sfn "$(readlink "/$link")" "$link"
  fi
done
# /etc: what the programs inside read; copied, so the host's /etc stays out of the container.
for f in passwd group nsswitch.conf ld.so.cache ld.so.conf localtime machine-id; do
  if [ -e "/etc/$f" ]; then
    cp -L "/etc/$f" "etc/$f"
  fi
done
# alternatives are links (/usr/bin/Xvnc → /etc/alternatives/Xvnc → /usr/bin/Xtigervnc): kept as links.
rm -rf etc/alternatives
cp -a /etc/alternatives etc/alternatives
for d in ld.so.conf.d fonts X11 drirc.d; do
  if [ -d "/etc/$d" ]; then
    rm -rf "etc/$d"
    cp -rL "/etc/$d" "etc/$d"
  fi
done
printf '127.0.0.1 localhost\n' > etc/hosts
: > etc/resolv.conf
echo "container-rootfs: $PWD (mount the host's /usr read-only at usr/: pictor run --container podman does)"

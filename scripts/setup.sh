#!/usr/bin/env bash
# Installs every Debian package Pictor needs to build and run its demo on a fresh Debian 12
# machine; with --tests also what only the tests need (`make test` passes it, `make demo` does
# not, so the demo's set-up stays small). Idempotent: packages already present are skipped quickly.
#   scripts/setup.sh            build + demo
#   scripts/setup.sh --tests    build + demo + tests
set -euo pipefail

PACKAGES=(
  # build
  build-essential cmake pkg-config
  # Ninja schedules both cores across targets; ccache makes a rebuild of unchanged sources (a fresh
  # clone included: CMakeLists.txt keys it on paths relative to the source root) nearly free
  ninja-build ccache
  # libraries Pictor links
  libgl-dev libegl-dev libgles-dev libx11-dev libx11-xcb-dev libxcb1-dev libxext-dev libxtst-dev
  libxdamage-dev libxfixes-dev
  libcli11-dev nlohmann-json3-dev libfmt-dev libcairo2-dev libfreetype-dev libturbojpeg0-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  # perf counter event names (the resource sampler; docs/resources.md)
  libpfm4-dev
  # the results database (docs/reports.md): SQLite files and PostgreSQL servers
  libsqlite3-dev libpq-dev
  # campaign plans (docs/scale-out.md) are YAML, read and the Kubernetes manifests written by yaml-cpp
  libyaml-cpp-dev
  # the embedded default: virtual X server + Mesa llvmpipe, and third-party GL apps for tests
  xvfb xauth x11-utils libgl1-mesa-dri libegl-mesa0 mesa-utils mesa-utils-extra glmark2-x11
  # Vulkan apps (docs/vulkan.md): the loader's headers for the layer, Mesa's lavapipe, vkcube
  libvulkan-dev mesa-vulkan-drivers vulkan-tools
  # a test runs glmark2 under valgrind to catch the hook writing into or leaving behind freed memory
  valgrind
  # remote rendering: the VNC proxies Pictor drives, and libvncclient for its RFB client
  tigervnc-standalone-server x11vnc libvncserver-dev
  # the stream adapter (docs/streaming.md): GStreamer to build against, and the elements it runs
  # (ximagesrc: -x; x264enc: -ugly; RTP, udpsink, rtpstreampay: -good; avdec_h264: -libav)
  libgstreamer1.0-dev libgstreamer-plugins-base1.0-dev gstreamer1.0-plugins-base gstreamer1.0-plugins-good
  gstreamer1.0-plugins-ugly gstreamer1.0-libav gstreamer1.0-x
  # the optional kernel network backend (--net-backend netem): tc; unshare probes it
  iproute2 util-linux
  # the intelligent client: libtorch on CPU (OpenBLAS with OpenMP beside it)
  libtorch-dev libopenblas0-openmp
  fonts-dejavu-core
)

# Only the tests use these.
TEST_PACKAGES=(
  # tests read every session CSV with Python's csv module, as users' scripts do
  python3
  # a test checks tests/mark/data/expected.json against MotionMark's own scoring JavaScript
  nodejs
  # a test runs vkcube under Khronos' validation layer beneath Pictor's Vulkan layer
  vulkan-validationlayers
  # the report tests open report.html and compare.html in a real headless browser
  chromium
  # the results database's PostgreSQL test starts a real server (initdb, pg_ctl)
  postgresql
  # the live-metrics test scrapes /metrics with a real HTTP client
  curl
  # the container test runs a stack in a real podman container (runc: crun refuses this kind of
  # machine's hybrid cgroups; slirp4netns: the container's network, reached only through its port)
  podman runc slirp4netns
  # the stock-viewer adapters and their tests (docs/remote.md): --adapter vncviewer, and
  # --adapter xpra (xpra 3.1 needs Pillow, and PyGObject's cairo bridge to paint its windows);
  # like podman, optional stacks: the demo does not use them
  tigervnc-viewer xpra python3-pil python3-gi-cairo
  # an SDL2 game offloaded (--render offload, docs/offload.md): Neverball, through its profile
  # (profiles/neverball.profile; about 35 MB with its data); and an SFML one, Extreme Tux Racer
  # (profiles/extremetuxracer.profile; about 45 MB with its data and SFML)
  neverball extremetuxracer
  # the campaign test runs a real one-node Slurm cluster (slurmctld, slurmd, sbatch) with munge
  # authentication, all started by the test on loopback (docs/scale-out.md)
  slurm-wlm munge
)
if [ "${1:-}" = "--tests" ]; then
  PACKAGES+=("${TEST_PACKAGES[@]}")
elif [ $# -gt 0 ]; then
  echo "setup: unknown argument '$1' (usage: $0 [--tests])" >&2
  exit 2
fi

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present" >&2
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
echo "setup: done" >&2

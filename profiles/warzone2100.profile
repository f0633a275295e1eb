# Warzone 2100 4.3 (Debian package warzone2100): real-time strategy, drawn through its Vulkan
# backend (--gfxbackend=vulkan), so Pictor measures it with its Vulkan layer (docs/vulkan.md).
# Started straight into a two-player skirmish on Sk-HighGround from the command line: --skirmish
# names one of the set-ups the game ships for its own tests (mp.wz tests/highground.json) and
# --autogame lets the game's AI play player 0 too, so no menu is navigated and every session
# plays the same opening. The arrow keys scroll the map (the camera is not the AI's).
name = warzone2100
description = Warzone 2100 4.3 with its Vulkan renderer: AI skirmish on Sk-HighGround
package = warzone2100
command = warzone2100 --window --resolution={width}x{height} --gfxbackend=vulkan --nosound --noshadows --notexturecompression --autogame --skirmish=highground.json
# A software renderer (lavapipe) pays most for shadows and compressed textures: both off (the
# game's own options; docs/vulkan.md has the measurements). WZ keeps its settings, replays and
# logs in $XDG_DATA_HOME/warzone2100, inside the private home.
# --nosound keeps the game from opening a device; OpenAL is told to use none as well, should a
# build ignore the flag (without a sound device it would hang).
env = ALSOFT_DRIVERS=null
window = Warzone 2100
startup_timeout = 60s
# No start-up input. The skirmish begins about 10 s after launch; its first frames upload the
# map's textures and take seconds each on lavapipe. Play starts this long after the first drawing.
startup_wait = 25s
inputs = Left|Right|Up|Down
driver = scripted:rate=2,keys=Left|Right|Up|Down,seed=1
duration = 30s
load_time = 40s

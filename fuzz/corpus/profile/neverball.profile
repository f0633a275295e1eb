# Neverball (Debian package neverball): tilt the floor with the arrow keys to roll the ball over
# coins to the goal. Started straight into a level, so no menu has to be navigated.
name = neverball
description = Neverball 1.6: tilt the floor to roll a ball to the goal
package = neverball
command = neverball --level map-easy/easy.sol
# No sound device on a benchmark machine: SDL's dummy audio (and OpenAL's null backend, should a
# build use it) instead of hanging on a missing one.
env = SDL_AUDIODRIVER=dummy
env = ALSOFT_DRIVERS=null
# Windowed at the session's size, no vsync (Xvfb has none), written into the private home.
config_file = .neverball/neverballrc: fullscreen 0
config_file = .neverball/neverballrc: width {width}
config_file = .neverball/neverballrc: height {height}
config_file = .neverball/neverballrc: vsync 0
# Software rendering (llvmpipe) pays most for anisotropic filtering and the floor reflection,
# which triple the frame time there; a low-end preset keeps the game interactive.
config_file = .neverball/neverballrc: aniso 0
config_file = .neverball/neverballrc: reflection 0
window = Neverball
startup_timeout = 60s
startup_wait = 2s
# "Click to begin." on the level's intro screen, then "Ready?", "GO!".
startup = click:50%x50% wait:2s
inputs = Left|Right|Up|Down
driver = scripted:rate=4,keys=Left|Right|Up|Down,seed=1
duration = 30s
# Window in about a second; intro click and "Ready?", "GO!" take four more.
load_time = 8s

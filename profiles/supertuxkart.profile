# SuperTuxKart 1.4 (Debian package supertuxkart): kart racing against AI karts. Started straight
# into a race from the command line (--race-now), so no menu is navigated. Checked 2026-11-29 on
# the 2-core llvmpipe development VM: the window, first drawing and marker appear, but with a
# fresh private home the game rebuilds its texture cache before the race and had not reached it
# after 7 minutes, so play_start_ns (startup_wait after the first drawing) still falls in the loading
# screen there. See docs/profiles.md.
name = supertuxkart
description = SuperTuxKart 1.4: kart race on Lighthouse against three AI karts
package = supertuxkart
command = supertuxkart --no-start-screen --race-now --track=lighthouse --numkarts=4 --laps=99 --kart=tux --windowed --screensize={width}x{height}
# OpenAL hangs without a sound device unless told to use none.
env = ALSOFT_DRIVERS=null
# STK keeps its config in $XDG_CONFIG_HOME/supertuxkart and caches in $XDG_CACHE_HOME: both are
# in the private home already.
window = SuperTuxKart
startup_timeout = 180s
startup_wait = 15s
inputs = Up|Down|Left|Right|space
driver = scripted:rate=4,keys=Up|Left|Right|space,seed=1
duration = 30s
# Loading a track takes long on a software renderer.
load_time = 60s

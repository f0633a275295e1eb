# SuperTuxKart 1.4 (Debian package supertuxkart): kart racing against AI karts. Started straight
# into a race from the command line (--race-now also skips the ready-set-go countdown), so no menu
# is navigated. On a software renderer (llvmpipe) the default "advanced pipeline" (dynamic lights)
# never got past the loading screen: before the race it renders an importance-sampled specular
# environment map, which kept llvmpipe busy for minutes (> 7 min seen). --disable-dynamic-lights
# selects STK's simple pipeline and the race starts about 10 s after launch, from an empty home;
# no cache between sessions is needed. See docs/profiles.md for the measurements.
name = supertuxkart
description = SuperTuxKart 1.4: kart race on Lighthouse against three AI karts
package = supertuxkart
command = supertuxkart --no-start-screen --race-now --track=lighthouse --numkarts=4 --laps=99 --kart=tux --windowed --screensize={width}x{height} --disable-dynamic-lights --disable-texture-compression --disable-hd-textures --anisotropic=0 --disable-addon-karts --disable-addon-tracks
# The options after --screensize make it playable on a software renderer (each is STK's own, from
# `supertuxkart --help`): --disable-dynamic-lights gets it past loading (above); compressed (S3TC)
# and HD textures and anisotropic filtering cost llvmpipe most per frame in play: with them the
# race ran at 1.7 FPS, without them at 10.5 FPS (same machine, docs/profiles.md). No addons are
# installed in a private home, so STK need not look for any.
# OpenAL hangs without a sound device unless told to use none.
env = ALSOFT_DRIVERS=null
# STK keeps its config in $XDG_CONFIG_HOME/supertuxkart and caches in $XDG_CACHE_HOME: both are
# in the private home already.
window = SuperTuxKart
# The window appears and is first drawn (the loading screen) 1-5 s after launch, the longer the
# busier the machine.
startup_timeout = 60s
# There is no start-up input: --race-now starts the race as soon as the track is loaded. Play
# starts this long after the first drawing. Measured first drawing -> first race frame: 6.7 to
# 10.9 s (5 sessions) at load average 5 on the 2-core development VM (docs/profiles.md); 15 s
# leaves room for a busier machine so that the figures describe the race, not the loading screen.
startup_wait = 15s
inputs = Up|Down|Left|Right|space
driver = scripted:rate=4,keys=Up|Left|Right|space,seed=1
duration = 30s
# First drawing (up to 5 s) + startup_wait, with room for a busier machine.
load_time = 30s

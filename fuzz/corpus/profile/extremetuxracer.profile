# Extreme Tux Racer 0.8 (Debian package extremetuxracer): slide Tux down a snowy course.
# Start-up follows the game's menus (registration → game type → practice → race) with clicks.
# The game places its 800x600 window at 240,340 whatever the screen size (res_type 0); on the
# 1280x720 Xvfb screen its bottom-left corner (where the marker is) would be off screen, so
# pictor-launch moves it to 0,0 (launch.json notes say so). Figures are for 800x600.
name = extremetuxracer
description = Extreme Tux Racer 0.8: slide down a snowy course (practice race)
package = extremetuxracer
command = etr
# SFML audio goes through OpenAL, which hangs without a sound device unless told to use none.
env = ALSOFT_DRIVERS=null
# ETR finds its config directory (~/.etr) through the password database, not $HOME: the shim
# points it at the private home too.
passwd_home = private
# Windowed, the desktop's (Xvfb screen's) size, no frame-rate cap: options.txt in ~/.etr.
config_file = .etr/options.txt: [fullscreen] 0
config_file = .etr/options.txt: [res_type] 0
config_file = .etr/options.txt: [framerate] 0
config_file = .etr/options.txt: [music_volume] 0
config_file = .etr/options.txt: [sound_volume] 0
window = Tux Racer
startup_timeout = 90s
# The menus take a few seconds after the first drawing to accept clicks on a loaded machine.
startup_wait = 8s
# Registration: "Enter" (the default player). Game type menu: "Practice". Race selection (Bunny
# Hill): "Race!"; the course loads and its intro plays. Positions are shares of the 800x600
# window, found from screenshots (keys do not work here: Return on the focused name field does
# nothing, and Up/Down change the focused selector).
startup = click:50%x65% wait:4s click:50%x51% wait:4s click:67%x88% wait:12s
inputs = Left|Right|Up|Down
driver = scripted:rate=4,keys=Left|Right|Up|Down,seed=1
duration = 30s
load_time = 45s

# Extreme Tux Racer 0.8 (Debian package extremetuxracer): slide Tux down a snowy course.
# Start-up follows the game's menus (registration → game type → practice → race) by keyboard.
# Checked once (2026-11-29): the game starts, its window is found and the start-up steps run
# (launch.json has play_start_ns), but with res_type 0 the window is 800x600 placed at 240,340 on
# the 1280x720 Xvfb screen, so its bottom-left corner (where the marker is) is off screen and the
# client refuses to drive it. To do: a resolution that fits, or a per-profile marker corner.
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
startup_wait = 4s
# Registration: Return takes the default player. Game type menu: Down twice focuses "Practice",
# Return enters it. Race selection: Return starts the race; the course intro then plays.
startup = key:Return wait:2s key:Down key:Down key:Return wait:2s key:Return wait:12s
inputs = Left|Right|Up|Down
driver = scripted:rate=4,keys=Left|Right|Up|Down,seed=1
duration = 30s
load_time = 30s

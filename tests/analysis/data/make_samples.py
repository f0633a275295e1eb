#!/usr/bin/env python3
"""Writes the importer sample files in this folder (run from anywhere; output is deterministic).

The layouts follow the real tools' writers: MangoHud's logging.cpp (0.6.8: frametime in µs,
rows sampled every log_interval=100 ms; 0.7.x with log_versioning: frametime in ms, one row per
frame with log_interval=0) and PresentMon's CsvOutput (1.x columns; 2.x --v2_metrics columns;
2.x default columns). Values are made up but shaped like real captures.
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def write(name, lines, newline="\n", final_newline=True):
    text = newline.join(lines) + (newline if final_newline else "")
    with open(os.path.join(HERE, name), "w", newline="") as f:
        f.write(text)


def g6(x):
    """C++ ostream default formatting of a float (6 significant digits, no trailing zeros)."""
    return "%.6g" % x


def pictor_frames():
    # Main context: 11 swaps with known intervals; a second context (a loader thread) with 3.
    intervals = [16, 17, 16, 16, 50, 16, 17, 16, 16, 20]  # ms; sum 200
    gpu = ["3.1", "3.2", "", "3.4", "3.0", "9.5", "3.3", "", "3.2", "3.1", "3.6"]
    t = 1_000_000_000_000
    main = []
    for i in range(11):
        if i > 0:
            t += intervals[i - 1] * 1_000_000
        frame_ms = "" if i == 0 else "%.3f" % intervals[i - 1]
        main.append((i, "0x5581a0", t, frame_ms, "%.3f" % 2.5, "%.3f" % 0.2, gpu[i], "", "" if i % 4 else str(1000 + i)))
    other = [(i, "0x5581ff", 1_000_000_000_000 + 5_000_000 + i * 40_000_000, "" if i == 0 else "40.000",
              "1.000", "0.100", "", "", "") for i in range(3)]
    rows = []
    # Interleave the loader context's swaps like a writer thread serving two contexts would.
    for r in main:
        rows.append(r)
        if r[0] in (1, 4, 7):
            rows.append(other[(1, 4, 7).index(r[0])])
    lines = ["# pictor frames schema 1", "frame,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag"]
    for r in rows:
        lines.append(",".join(str(x) for x in r))
    write("pictor_frames.csv", lines)


def mangohud_new():
    # MangoHud 0.7.x, log_versioning=1, log_interval=0: one row per frame, frametime in ms.
    rnd = random.Random(7)
    lines = [
        "v1",
        "0.7.1",
        "---------------------SYSTEM INFO---------------------",
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler",
        "Debian GNU/Linux 12 (bookworm),AMD Ryzen 5 5600X 6-Core Processor,"
        "AMD Radeon RX 6700 XT (navi22 LLVM 15.0.6 DRM 3.49 6.1.0-18-amd64),31 GB,6.1.0-18-amd64,"
        "4.6 (Compatibility Profile) Mesa 22.3.6,schedutil",
        "--------------------FRAME METRICS--------------------",
        "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,"
        "gpu_vram_used,gpu_power,ram_used,swap_used,process_rss,elapsed",
    ]
    elapsed = 0
    for i in range(240):
        ft = 16.667 + rnd.uniform(-0.6, 0.6)
        if i == 150:
            ft = 58.3  # a hitch
        ft = float(g6(ft))
        elapsed += int(ft * 1e6) + rnd.randint(-20000, 20000)
        fps = 1000.0 / ft
        lines.append(",".join([
            g6(fps), g6(ft), str(rnd.randint(18, 26)), str(rnd.randint(55, 70)), "61", "58",
            str(2400 + rnd.randint(-40, 40)), "1000", g6(2.81), str(rnd.randint(120, 140)),
            g6(7.4), g6(0.0), g6(0.62), str(elapsed)]))
    write("mangohud_0.7_ms_per_frame.csv", lines)


def mangohud_old():
    # MangoHud 0.6.8 (Debian 12): no version block, frametime in µs (integer), rows written by the
    # logging thread every 100 ms, fps is the HUD's fps averaged over fps_sampling_period (500 ms).
    rnd = random.Random(11)
    lines = [
        "os,cpu,gpu,ram,kernel,driver,cpuscheduler",
        "Debian GNU/Linux 12 (bookworm),Intel(R) Core(TM) i7-8700 CPU @ 3.20GHz,"
        "NVIDIA GeForce GTX 1070,16 GB,6.1.0-13-amd64,4.6.0 NVIDIA 525.125.06,",
        "fps,frametime,cpu_load,gpu_load,cpu_temp,gpu_temp,gpu_core_clock,gpu_mem_clock,"
        "gpu_vram_used,gpu_power,ram_used,elapsed",
    ]
    elapsed = 100_123_456
    hud_fps = 72.0
    for i in range(50):
        ft_us = int(1e6 / 72.0 + rnd.uniform(-900, 900))
        if i == 31:
            ft_us = 41_702  # a hitch caught by a sample
        if i % 5 == 0:
            hud_fps = 72.0 + rnd.uniform(-1.5, 1.5)
        lines.append(",".join([
            g6(hud_fps), str(ft_us), str(rnd.randint(30, 40)), str(rnd.randint(90, 99)), "55", "66",
            "1860", "3802", g6(3.26), "148", g6(6.9), str(elapsed)]))
        elapsed += 100_000_000 + rnd.randint(50_000, 400_000)
    write("mangohud_0.6.8_us_sampled.csv", lines)


def presentmon_v1():
    # PresentMon 1.x default columns (display tracking on), values printed with %.14lf; a game and
    # the desktop window manager in one capture; CRLF line ends as written on Windows.
    header = ("Application,ProcessID,SwapChainAddress,Runtime,SyncInterval,PresentFlags,Dropped,"
              "TimeInSeconds,msInPresentAPI,msBetweenPresents,AllowsTearing,PresentMode,"
              "msUntilRenderComplete,msUntilDisplayed,msBetweenDisplayChange")
    rnd = random.Random(3)
    lines = [header]
    t_game = 1.25
    t_dwm = 1.30
    for i in range(60):
        ms = 8.333 + rnd.uniform(-0.4, 0.4) if i != 40 else 33.1
        ms = round(ms, 3)
        t_game += ms / 1000.0
        lines.append("Game.exe,4711,0x000001F3A2B4C010,DXGI,0,512,0,%.14f,%.14f,%.14f,1,Hardware: Independent Flip,%.14f,%.14f,%.14f"
                     % (t_game, 0.05, ms, 2.5, 9.1, ms))
        if i % 12 == 0:
            t_dwm += 0.1
            lines.append("dwm.exe,1208,0x0000024C11D0A2F0,DXGI,1,0,0,%.14f,%.14f,%.14f,0,Composed: Flip,%.14f,%.14f,%.14f"
                         % (t_dwm, 0.1, 100.0, 1.0, 16.6, 100.0))
    write("presentmon_1.x.csv", lines, newline="\r\n")


def presentmon_v2():
    # PresentMon 2.x --v2_metrics: FrameTime runs forward from this frame's CPUStartTime to the
    # next one's; NA where a metric is not available.
    header = ("Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
              "AllowsTearing,PresentMode,CPUStartTime,FrameTime,CPUBusy,CPUWait,GPULatency,GPUTime,"
              "GPUBusy,GPUWait,DisplayLatency,DisplayedTime,AnimationError,AnimationTime,MsFlipDelay,"
              "AllInputToPhotonLatency,ClickToPhotonLatency")
    rnd = random.Random(5)
    lines = [header]
    t = 5004.7366
    for i in range(80):
        ft = round(6.25 + rnd.uniform(-0.5, 0.5), 4) if i != 50 else 21.4031
        gpu_time = round(5.8 + rnd.uniform(-0.2, 0.2), 4)
        gpu_busy = round(gpu_time - 1.2, 4)
        lines.append("Overwatch.exe,2416,0x1CB732B1060,DXGI,0,0,1,Hardware Composed: Independent Flip,"
                     "%.4f,%.4f,%.4f,%.4f,1.3188,%.4f,%.4f,1.2249,11.9221,%s,NA,%.4f,NA,NA,NA"
                     % (t, ft, ft - 2.8, 2.8, gpu_time, gpu_busy,
                        "NA" if i % 9 == 0 else "%.4f" % ft, t))
        if i % 20 == 3:
            lines.append("explorer.exe,880,0x22A0F8E1230,DXGI,1,0,0,Composed: Flip,%.4f,16.6667,"
                         "0.4000,16.2667,0.1000,0.3000,0.3000,0.0000,25.1000,16.6667,NA,%.4f,NA,NA,NA"
                         % (t + 1.0, t + 1.0))
        t = round(t + ft, 4)
    write("presentmon_2.x_v2_metrics.csv", lines)


def presentmon_v2_default():
    # PresentMon 2.x default columns: MsBetweenPresents with TimeInMs (present start, ms).
    header = ("Application,ProcessID,SwapChainAddress,PresentRuntime,SyncInterval,PresentFlags,"
              "AllowsTearing,PresentMode,TimeInMs,MsBetweenSimulationStart,MsBetweenPresents,"
              "MsBetweenDisplayChange,MsInPresentAPI,MsRenderPresentLatency,MsUntilDisplayed,"
              "CPUStartTimeInMs,MsBetweenAppStart,MsCPUBusy,MsCPUWait,MsGPULatency,MsGPUTime,"
              "MsGPUBusy,MsGPUWait,MsAnimationError,AnimationTime,MsFlipDelay")
    lines = [header]
    t = 1200.0
    for i, ms in enumerate([10.0, 10.0, 12.0, 10.0, 30.0, 10.0]):
        t += ms
        lines.append("game.exe,77,0x1,DXGI,1,0,0,Composed: Flip,%.4f,NA,%.4f,%.4f,0.0500,1.2000,"
                     "9.0000,%.4f,%.4f,7.5000,2.5000,0.4000,%.4f,%.4f,0.1000,NA,%.4f,NA"
                     % (t, ms, ms, t - 8.0, ms, 5.0 + i, 4.5 + i, t - 8.0))
    write("presentmon_2.x_default.csv", lines)


if __name__ == "__main__":
    pictor_frames()
    mangohud_new()
    mangohud_old()
    presentmon_v1()
    presentmon_v2()
    presentmon_v2_default()

// The play window of profile sessions: frames before play start are left out of the figures, the
// whole session's are kept and labelled, a session without a play start says so, and a session
// that ended during start-up gets one line saying what the start-up takes.
#include "analysis/play_window.h"

#include <gtest/gtest.h>

#include "analysis/load.h"
#include "analysis/summary.h"
#include "test_files.h"

namespace pictor::analysis {
namespace {

constexpr std::int64_t kT0 = 1'000'000'000;

// `menu` frames of 5 ms (a menu at 200 FPS), then `play` frames of 20 ms (play at 50 FPS) with
// one 100 ms hitch in play; play starts at the first swap of the 20 ms part.
FrameSeries menu_then_play(int menu, int play, std::int64_t* play_start) {
  FrameSeries s;
  s.source = "pictor";
  std::int64_t t = kT0;
  s.swap_ns.push_back(t);
  for (int i = 0; i < menu; ++i) {
    t += 5'000'000;
    s.swap_ns.push_back(t);
    s.frame_ms.push_back(5.0);
    s.gpu_ms.push_back(1.0);
  }
  *play_start = t;
  for (int i = 0; i < play; ++i) {
    const double ms = i == play / 2 ? 100.0 : 20.0;
    t += static_cast<std::int64_t>(ms * 1e6);
    s.swap_ns.push_back(t);
    s.frame_ms.push_back(ms);
    s.gpu_ms.push_back(3.0);
  }
  return s;
}

LaunchRecord launched(std::optional<std::int64_t> play_start) {
  LaunchRecord l;
  l.present = true;
  l.start_ns = kT0 - 2'000'000'000;
  l.play_start_ns = play_start;
  return l;
}

TEST(PlayWindow, FramesBeforePlayStartAreLeftOut) {
  std::int64_t play = 0;
  const FrameSeries s = menu_then_play(400, 200, &play);
  const FrameSeries p = frames_from(s, play);
  ASSERT_EQ(p.swap_ns.size(), 201u);
  EXPECT_EQ(p.swap_ns.front(), play);
  ASSERT_EQ(p.frame_ms.size(), 200u);
  ASSERT_EQ(p.gpu_ms.size(), 200u);
  for (double ms : p.frame_ms) EXPECT_GE(ms, 20.0) << "a menu frame time is left in play";
  for (double g : p.gpu_ms) EXPECT_EQ(g, 3.0);
  // A play start between two swaps: the interval that began before it is start-up.
  const FrameSeries q = frames_from(s, play - 1);
  EXPECT_EQ(q.swap_ns.front(), play);
  EXPECT_EQ(q.frame_ms.size(), 200u);
  // Play starting after the last swap leaves no frame, and the summary says there is none.
  const FrameSeries none = frames_from(s, s.swap_ns.back() + 1);
  EXPECT_TRUE(none.swap_ns.empty());
  EXPECT_TRUE(none.frame_ms.empty());
  const nlohmann::json j = summarize_frames(none);
  EXPECT_EQ(j["frames"], 0);
  EXPECT_TRUE(j["fps_avg"].is_null());
}

TEST(PlayWindow, SummaryIsPlayWithTheWholeSessionKeptAndLabelled) {
  std::int64_t play = 0;
  const FrameSeries s = menu_then_play(400, 200, &play);
  const nlohmann::json j = summarize_session_frames(s, launched(play));
  EXPECT_EQ(j["figures_from"], "play");
  EXPECT_EQ(j["play_start_ns"], play);
  EXPECT_NEAR(j["play_start_s"].get<double>(), 2.0 + 400 * 0.005, 1e-9);
  EXPECT_EQ(j["frames"], 201);
  // 199 frames of 20 ms and one of 100 ms: 200 / 4.08 s.
  EXPECT_NEAR(j["fps_avg"].get<double>(), 200.0 / 4.08, 1e-9);
  EXPECT_DOUBLE_EQ(j["frame_ms"]["min"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["frame_ms"]["p50"].get<double>(), 20.0);
  EXPECT_DOUBLE_EQ(j["low_1pct_fps_percentile"].get<double>(), 50.0);  // p99 of 200 = rank 198 = 20 ms
  EXPECT_DOUBLE_EQ(j["low_1pct_fps_average"].get<double>(), 2.0 / 0.12);  // slowest 2: 100 + 20 ms
  EXPECT_EQ(j["stutter"]["count"], 1);
  EXPECT_DOUBLE_EQ(j["gpu_ms"]["mean"].get<double>(), 3.0);
  EXPECT_FALSE(j.contains("play_note"));

  const nlohmann::json& w = j["whole_session"];
  ASSERT_TRUE(w.is_object());
  EXPECT_EQ(w["frames"], 601);
  EXPECT_NEAR(w["fps_avg"].get<double>(), 600.0 / 6.08, 1e-9);
  EXPECT_DOUBLE_EQ(w["frame_ms"]["min"].get<double>(), 5.0);
  // The menu's speed hides the play's slowness: the whole session's lows are not play's.
  EXPECT_GT(w["fps_avg"].get<double>(), 2 * j["fps_avg"].get<double>());
  EXPECT_FALSE(w.contains("schema")) << "what describes the input is said once, at the top";
  EXPECT_FALSE(w.contains("whole_session"));
  // The table says which frames the figures are and shows the whole session beside them.
  const std::string table = format_frame_summary(j);
  EXPECT_NE(table.find("Figures from        play: the frames after play start (4.0 s after launch)"), std::string::npos)
      << table;
  EXPECT_NE(table.find("Whole session       601 frames, 98.68 FPS"), std::string::npos) << table;
  EXPECT_NE(table.find("Average FPS         49.02"), std::string::npos) << table;
}

// An offloaded session's copy figures are per frame: the menu's copies stay out of play's fc_ms
// and as_ms, every play frame keeps its own, and the whole session keeps them all.
TEST(PlayWindow, FrameCopyFiguresArePlaysOwn) {
  std::int64_t play = 0;
  FrameSeries s = menu_then_play(400, 200, &play);
  for (std::size_t i = 0; i < s.swap_ns.size(); ++i) {
    const bool in_play = s.swap_ns[i] >= play;
    s.fc_ms.push_back(in_play ? 4.0 : 1.0);
    s.as_ms.push_back(in_play ? 0.5 : 0.25);
  }
  const FrameSeries p = frames_from(s, play);
  ASSERT_EQ(p.fc_ms.size(), p.swap_ns.size());
  ASSERT_EQ(p.as_ms.size(), p.swap_ns.size());
  const nlohmann::json j = summarize_session_frames(s, launched(play));
  EXPECT_EQ(j["fc_ms"]["n"], 201);
  EXPECT_DOUBLE_EQ(j["fc_ms"]["min"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(j["as_ms"]["max"].get<double>(), 0.5);
  EXPECT_TRUE(j["frame_copy_note"].is_null()) << j["frame_copy_note"];
  EXPECT_EQ(j["whole_session"]["fc_ms"]["n"], 601);
  EXPECT_DOUBLE_EQ(j["whole_session"]["fc_ms"]["min"].get<double>(), 1.0);
}

TEST(PlayWindow, NoPlayStartIsTheWholeSessionClearlyNoted) {
  std::int64_t play = 0;
  const FrameSeries s = menu_then_play(50, 50, &play);
  LaunchRecord l = launched(std::nullopt);
  l.startup_end = "gave up";
  l.notes = {"no window with 'Tux' in its title within 90 s"};
  const nlohmann::json j = summarize_session_frames(s, l);
  EXPECT_EQ(j["figures_from"], "session");
  EXPECT_TRUE(j["play_start_ns"].is_null());
  EXPECT_EQ(j["frames"], 101);
  EXPECT_FALSE(j.contains("whole_session"));
  EXPECT_EQ(j["play_note"],
            "launch.json has no play_start_ns: no window with 'Tux' in its title within 90 s: the figures cover the "
            "whole session, start-up included");
  EXPECT_NE(format_frame_summary(j).find("Figures from        the whole session: launch.json has no play_start_ns"),
            std::string::npos);
  // The launcher gave up by itself: that is measured (with the note), not a failure.
  EXPECT_FALSE(play_never_started(l, 45).has_value());
  // A session without pictor-launch has no play window and no note.
  const nlohmann::json plain = summarize_session_frames(s, LaunchRecord{});
  EXPECT_EQ(plain["figures_from"], "session");
  EXPECT_FALSE(plain.contains("play_note"));
  EXPECT_FALSE(plain.contains("play_start_ns"));
  EXPECT_EQ(plain, [&] {
    nlohmann::json expected = summarize_frames(s);
    expected["figures_from"] = "session";
    return expected;
  }());
}

TEST(PlayWindow, ReadsLaunchJsonAndCutsARecordedSession) {
  test::TempDir dir;
  // 10 frames of 50 ms (loading), then 21 of 10 ms; play starts at the 10th swap.
  std::string csv = "# pictor frames schema 1\nframe,ctx,swap_ns,frame_ms,cpu_ms,swap_call_ms,gpu_ms,fc_ms,tag\n";
  std::int64_t t = kT0;
  for (int i = 0; i < 31; ++i) {
    if (i > 0) t += i <= 10 ? 50'000'000 : 10'000'000;
    csv += std::to_string(i) + ",1," + std::to_string(t) + ",,,,,,\n";
  }
  dir.write("frames.csv", csv);
  const std::int64_t play = kT0 + 10 * 50'000'000LL;
  dir.write("launch.json", nlohmann::json{{"schema", 1},
                                          {"start_ns", kT0 - 500'000'000},
                                          {"window_found_ns", kT0},
                                          {"first_drawn_ns", kT0},
                                          {"play_start_ns", play},
                                          {"startup_end", "play"},
                                          {"startup_script_s", 0.5},
                                          {"startup_timeout_s", 30},
                                          {"load_time_s", 6},
                                          {"notes", {"moved the window"}}}
                                   .dump());
  const LaunchRecord l = read_launch_record(dir.path());
  EXPECT_TRUE(l.present);
  EXPECT_TRUE(l.error.empty());
  EXPECT_EQ(l.play_start_ns, play);
  EXPECT_EQ(l.startup_end, "play");
  EXPECT_DOUBLE_EQ(l.startup_script_s, 0.5);
  EXPECT_DOUBLE_EQ(l.load_time_s, 6.0);
  ASSERT_EQ(l.notes.size(), 1u);
  const FrameSeries s = load_frames(dir.path());
  const nlohmann::json j = summarize_session_frames(s, l);
  EXPECT_EQ(j["figures_from"], "play");
  EXPECT_EQ(j["frames"], 21);
  EXPECT_NEAR(j["fps_avg"].get<double>(), 100.0, 1e-6);
  EXPECT_EQ(j["whole_session"]["frames"], 31);
  EXPECT_EQ(figure_frames(s, l).frame_ms.size(), 20u);
  EXPECT_FALSE(play_never_started(l, 10).has_value());

  // An unreadable launch.json: the whole session, and the note says why.
  dir.write("launch.json", "{ truncated");
  const LaunchRecord bad = read_launch_record(dir.path());
  EXPECT_TRUE(bad.present);
  EXPECT_FALSE(bad.error.empty());
  const nlohmann::json b = summarize_session_frames(s, bad);
  EXPECT_EQ(b["figures_from"], "session");
  EXPECT_EQ(b["frames"], 31);
  EXPECT_EQ(b["play_note"].get<std::string>().rfind("launch.json cannot be read (", 0), 0u) << b["play_note"];
  EXPECT_FALSE(read_launch_record(dir.path() + "/nowhere").present);
}

TEST(PlayWindow, ASessionThatEndedDuringStartUpSaysWhatTheStartUpNeeds) {
  LaunchRecord l = launched(std::nullopt);
  l.startup_end = "session ended";
  l.startup_script_s = 28;
  l.startup_timeout_s = 90;
  l.load_time_s = 45;
  // Drawn 3.2 s after launch, then the profile's 28 s of waits: about 31 s.
  l.window_found_ns = *l.start_ns + 2'900'000'000;
  l.first_drawn_ns = *l.start_ns + 3'200'000'000;
  EXPECT_EQ(play_never_started(l, 10).value_or(""),
            "play never started within the 10 s duration (the profile's start-up needs about 31 s: first drawn 3.2 s "
            "after launch, then 28 s of startup_wait and start-up steps; load_time 45 s)");
  // Not drawn yet: a lower bound from when the window appeared.
  l.first_drawn_ns.reset();
  EXPECT_EQ(play_never_started(l, 10).value_or(""),
            "play never started within the 10 s duration (the profile's start-up needs more than 31 s: the window "
            "appeared 2.9 s after launch and was not drawn yet, then 28 s of startup_wait and start-up steps; "
            "load_time 45 s)");
  // No window yet: at least the duration plus the waits.
  l.window_found_ns.reset();
  EXPECT_EQ(play_never_started(l, 10).value_or(""),
            "play never started within the 10 s duration (the profile's start-up needs more than 38 s: no game window "
            "yet (startup_timeout 90 s), then 28 s of startup_wait and start-up steps; load_time 45 s)");
  // The session of a profile whose play started, or that has no launcher, never gets this line.
  l.play_start_ns = *l.start_ns + 31'000'000'000;
  EXPECT_FALSE(play_never_started(l, 10).has_value());
  EXPECT_FALSE(play_never_started(LaunchRecord{}, 10).has_value());
}

}  // namespace
}  // namespace pictor::analysis

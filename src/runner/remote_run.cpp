#include "runner/remote_run.h"

#include <chrono>
#include <filesystem>
#include <fmt/format.h>
#include <thread>

#include "client/remote_client.h"
#include "core/clock.h"
#include "core/error.h"
#include "core/files.h"
#include "core/out_dir.h"
#include "core/time_text.h"
#include "net/relay.h"
#include "runner/machine.h"
#include "runner/measure.h"
#include "runner/remote_agent.h"
#include "runner/remote_clock.h"
#include "runner/remote_protocol.h"
#include "runner/session_derive.h"
#include "runner/session_plan.h"
#include "stream/stream_client.h"

namespace pictor::runner {
namespace fs = std::filesystem;

namespace {

constexpr int kProbesAtEachEnd = 8;
constexpr double kProbeEveryS = 2.0;

StackEnd end_from_json(const nlohmann::json& j) {
  StackEnd e;
  e.ended = true;
  e.stop_reason = j.value("stop_reason", "at the end of the session");
  e.app_exited_first = j.value("app_exited_first", false);
  e.end_ns = j.value("end_ns", std::int64_t{0});
  e.measured_s = j.value("measured_s", 0.0);
  e.suspended_servers = j.value("suspended_servers", std::vector<std::string>{});
  e.app_suspended = j.value("app_suspended", false);
  if (j.contains("dead_server") && j["dead_server"].is_object()) {
    const nlohmann::json& d = j["dead_server"];
    e.dead_server = ServerEnd{d.value("name", ""), d.value("log", ""), d.value("how", ""), d.value("seen_ns", std::int64_t{0}),
                              d.value("followed", std::vector<std::string>{})};
  }
  return e;
}

// A file name the agent may write into the session directory: a plain name, nothing Pictor
// writes on this side.
bool acceptable_name(const std::string& n) {
  return !n.empty() && n.find('/') == std::string::npos && n[0] != '.' && n != "run.json" && n != "summary.json" &&
         n != "clock.csv" && n.rfind("client_", 0) != 0;
}

// The stream client as the session drives it (an adapter's own client on one host): run.json
// `client.adapter` gets its figures and what the relays carried.
class StreamHandle final : public AdapterClient {
 public:
  StreamHandle(std::unique_ptr<stream::StreamClient> c, const std::vector<std::unique_ptr<net::TcpRelay>>& relays)
      : client_(std::move(c)), relays_(relays) {}
  client::ClientStats stop() override { return client_->stop(); }
  void finish_inputs() override { client_->finish_inputs(); }
  bool running() const override { return client_->running(); }
  nlohmann::json describe() const override {
    nlohmann::json j = client_->stats_json();
    if (relays_.size() == 2)
      j["net"] = {{"input_tcp", {{"bytes_up", relays_[0]->bytes_up()}, {"bytes_down", relays_[0]->bytes_down()}}},
                  {"video_tcp", {{"bytes_down", relays_[1]->bytes_down()}}}};
    return j;
  }

 private:
  std::unique_ptr<stream::StreamClient> client_;
  const std::vector<std::unique_ptr<net::TcpRelay>>& relays_;
};

// The session's client side, one control connection to the agent.
class TwoHostSession {
 public:
  TwoHostSession(const RunOptions& o, std::string host, int port)
      : o_(o), host_(std::move(host)), port_(port), where_(fmt::format("{}:{}", host_, port_)) {}

  RunResult run() {
    const std::string token = read_token_file(o_.token_file, "--token-file");
    plan_.emplace(plan_session(o_));  // every check `pictor run` makes here, before anything starts
    check_two_host_adapter(o_);
    if (!o_.container.engine.empty()) throw UsageError("--server cannot be combined with --container (the render host decides how it runs)");
    if (!o_.metrics_listen.empty()) throw UsageError("--server cannot be combined with --metrics-listen (the session's files are on the render host while it runs)");
    if (plan_->use_netem) throw UsageError("--server emulates --net with the relay on this host: --net-backend netem shapes a loopback port");
    ch_.emplace(ControlChannel::connect(host_, port_, 10.0));
    ch_->send({{"type", "hello"}, {"token", token}, {"protocol", kControlProtocol}, {"version", kAgentVersion}});
    welcome_ = ch_->expect("welcome", 10.0);
    for (int i = 0; i < kProbesAtEachEnd; ++i) probes_.push_back(probe_clock(*ch_, "before", 5.0, ignore_));
    ch_->send(plan_message(o_));
    ch_->expect("planned", 60.0);  // refused: the agent's one-line cause, a usage error as here
    dir_ = claim_out_dir(o_.out_dir, default_session_dir(fs::path(plan_->label).filename().string()), o_.force);
    ch_->send({{"type", "start"}});
    nlohmann::json ready;
    try {
      ready = ch_->expect("ready", 120.0);
    } catch (const std::exception& e) {
      run_ = {{"schema", 1},
              {"command_line", o_.argv.empty() ? own_command_line() : o_.argv},
              {"app", {{"label", plan_->label}}},
              {"adapter", o_.adapter},
              {"status", "failed to start"},
              {"failure", e.what()},
              {"end_time", iso_utc_now()}};
      add_two_hosts();
      write_run_json(dir_, run_);
      throw;
    }
    return measure_and_conclude(ready);
  }

 private:
  RunResult measure_and_conclude(const nlohmann::json& ready) {
    run_ = ready.at("run");
    run_["command_line"] = o_.argv.empty() ? own_command_line() : o_.argv;
    run_["net"] = {{"spec", net::to_string(plan_->net_spec)},
                   {"emulation", plan_->net_spec.is_identity() ? "none"
                                 : o_.adapter == "stream" ? "user-space TCP relays (video, input) on the client host"
                                                          : "user-space TCP relay on the client host"}};
    server_start_ns_ = run_.value("start_ns", std::int64_t{0});
    add_two_hosts();
    write_run_json(dir_, run_);
    SessionWrites writes(dir_);
    Progress progress(o_.quiet);
    InterruptGuard interrupts;
    start_client(ready);
    measure(progress);
    finish();
    const StackRecord record{*plan_, dir_, run_, end_, client_stats_, client_.get(), app_status_, processes_,
                             server_start_ns_, name_};
    // Resources asked for but the agent's records never came (it was lost): say so.
    if (o_.resources && server_resources_.is_null())
      server_resources_ = {{"unavailable", "unavailable: the render host's records did not arrive (the agent was lost)"}};
    if (server_resources_.is_object()) server_resources_["host"] = render_host_resources_label(where_);
    ConcludeOptions co;
    co.remote_resources = &server_resources_;
    return conclude(record, co, writes, progress);
  }

  void add_two_hosts() {
    const ClockEstimate e = estimate_clock(probes_);
    nlohmann::json clock = clock_json(e);
    clock["discipline"] = {{"client", clock_discipline()}, {"server", welcome_.value("clock", nlohmann::json())}};
    run_["two_hosts"] = {{"server", where_},
                         {"agent_version", welcome_.value("version", "")},
                         {"agent_host", welcome_.value("host", "")},
                         {"protocol", welcome_.value("protocol", 0)},
                         {"server_machine", welcome_.value("machine", nlohmann::json())},
                         {"client_machine", machine_info()},
                         {"clock", clock},
                         {"files_received", files_received_},
                         {"bytes_received", bytes_received_}};
  }

  // A relay on this host's loopback to the agent's HOST:PORT, with --net's emulation (none: it
  // only forwards); the stream client connects to loopback only.
  int relay_to(const std::string& host, int port, std::uint64_t seed) {
    net::RelayOptions ro;
    ro.target_host = host;
    ro.target_port = static_cast<std::uint16_t>(port);
    ro.seed = seed;
    ro.max_queued_bytes = 4 << 20;
    stream_relays_.push_back(std::make_unique<net::TcpRelay>(plan_->net_spec, ro));
    stream_relays_.back()->start();
    return stream_relays_.back()->port();
  }

  void start_stream_client(const nlohmann::json& ready) {
    const nlohmann::json& w = ready.at("window");
    const std::string host = ready.value("host", host_);
    stream::StreamClientOptions co;
    co.out_dir = dir_.string();
    co.transport = stream::Transport::tcp;
    co.input_port = relay_to(host, ready.at("input_port").get<int>(), 1);
    co.tcp_port = relay_to(host, ready.at("video_port").get<int>(), 2);
    co.window = tag::WindowRect{w.at("x").get<int>(), w.at("y").get<int>(), w.at("width").get<int>(), w.at("height").get<int>()};
    co.expect_marker = o_.marker;
    co.app_running = [this] { return !server_ended_; };
    for (const auto& kc : ready.value("keycodes", nlohmann::json::array()))
      co.keycodes[kc.at(0).get<unsigned>()] = kc.at(1).get<unsigned>();
    if (!plan_->driver) return;
    try {
      client_ = wrap_client(std::make_unique<StreamHandle>(stream::StreamClient::start(co, std::move(plan_->driver)), stream_relays_));
    } catch (const RunError& e) {
      client_stats_.failure = e.what();
    }
  }

  void start_client(const nlohmann::json& ready) {
    if (o_.adapter == "stream") return start_stream_client(ready);
    const nlohmann::json& w = ready.at("window");
    std::string host = ready.value("host", host_);
    int port = ready.at("port").get<int>();
    if (!plan_->net_spec.is_identity()) {
      net::RelayOptions ro;
      ro.target_host = host;
      ro.target_port = static_cast<std::uint16_t>(port);
      relay_ = std::make_unique<net::TcpRelay>(plan_->net_spec, ro);
      relay_->start();
      host = "127.0.0.1";
      port = relay_->port();
    }
    client::RemoteClientOptions co;
    co.host = host;
    co.port = port;
    co.out_dir = dir_.string();
    co.window = tag::WindowRect{w.at("x").get<int>(), w.at("y").get<int>(), w.at("width").get<int>(), w.at("height").get<int>()};
    co.jpeg_quality = o_.vnc_quality;
    co.subsampling = o_.vnc_subsampling;
    co.app_running = [this] { return !server_ended_; };
    co.expect_marker = o_.marker;
    for (const auto& kc : ready.value("keycodes", nlohmann::json::array()))
      co.keycodes[kc.at(0).get<unsigned>()] = kc.at(1).get<unsigned>();
    if (!plan_->driver) return;
    try {
      auto remote = client::RemoteClient::start(co, std::move(plan_->driver));
      run_["rfb"] = remote->server_info();
      client_ = wrap_client(std::move(remote));
    } catch (const RunError& e) {
      client_stats_.failure = e.what();  // the app stays measured, as on one host
    }
  }

  // The agent's messages while the session runs.
  void handle(const nlohmann::json& m) {
    if (m.value("type", "") == "ended") {
      server_ended_ = true;
      end_ = end_from_json(m.value("end", nlohmann::json::object()));
    }
  }

  void measure(Progress& progress) {
    // The deadline counts from the app's start on the render host, in this host's clock.
    const ClockEstimate e = estimate_clock(probes_);
    const std::int64_t start_here = server_start_ns_ - (e.known ? e.offset_ns : 0);
    const std::int64_t deadline = start_here + static_cast<std::int64_t>(o_.duration_s * 1e9);
    std::int64_t next_probe = monotonic_ns() + static_cast<std::int64_t>(kProbeEveryS * 1e9);
    bool finishing = false, noted = false;
    const auto on_message = [this](const nlohmann::json& m) { handle(m); };
    try {
      for (;;) {
        if (const std::optional<nlohmann::json> m = ch_->receive(0.02)) handle(*m);
        const std::int64_t now = monotonic_ns();
        if (server_ended_) return;
        if (const int sig = interrupt_signal()) {
          interrupted_by_ = sig;
          stop_reason_ = "when interrupted (" + signal_name(sig) + ")";
          return;
        }
        if (now >= deadline) return;
        if (client_ && !finishing && now >= deadline - 300'000'000) {
          finishing = true;
          client_->finish_inputs();
        }
        if (client_ && !client_->running() && !noted) {
          noted = true;
          progress.note("pictor: the input client stopped early; the app keeps running");
        }
        if (now >= next_probe) {
          probes_.push_back(probe_clock(*ch_, "during", 5.0, on_message));
          next_probe = now + static_cast<std::int64_t>(kProbeEveryS * 1e9);
        }
        progress.update(fmt::format("pictor: {} on {} {:.0f}/{:g} s", plan_->label, where_,
                                    std::max(0.0, static_cast<double>(now - start_here) * 1e-9), o_.duration_s));
      }
    } catch (const RunError& err) {
      lost(err.what());
    }
  }

  // The agent's connection broke: this side's records are kept, the cause is the agent.
  void lost(const std::string& how) {
    if (agent_lost_) return;
    agent_lost_ = true;
    server_ended_ = true;
    const ClockEstimate e = estimate_clock(probes_);
    const std::int64_t now_server = monotonic_ns() + (e.known ? e.offset_ns : 0);
    end_ = StackEnd{};
    end_.ended = true;
    end_.stop_reason = "after the agent's control connection was lost";
    end_.end_ns = now_server;
    end_.measured_s = static_cast<double>(now_server - server_start_ns_) * 1e-9;
    end_.dead_server = ServerEnd{"pictor serve at " + where_, "the agent's log on " + where_, how, now_server, {}};
    // What the agent had said of its processes at the start; none of them is reachable from here.
    processes_ = run_.value("processes", std::vector<nlohmann::json>{});
    for (auto& p : processes_) p["ended"] = "unknown: the agent's connection was lost";
  }

  void finish() {
    if (client_) {
      client_stats_ = client_->stop();
      if (!server_ended_) std::this_thread::sleep_for(std::chrono::milliseconds(100));  // the last releases read
    }
    if (relay_) {
      relay_->stop();
      run_["net"]["bytes_up"] = relay_->bytes_up();
      run_["net"]["bytes_down"] = relay_->bytes_down();
      run_["net"]["connections"] = relay_->connections();
    }
    for (auto& r : stream_relays_) r->stop();
    if (!agent_lost_) {
      try {
        ch_->send({{"type", "stop"}, {"reason", server_ended_ ? end_.stop_reason : stop_reason_}});
        receive_records();
        for (int i = 0; i < kProbesAtEachEnd; ++i) probes_.push_back(probe_clock(*ch_, "after", 5.0, ignore_));
        ch_->send({{"type", "bye"}});
      } catch (const RunError& e) {
        lost(e.what());
      }
    }
    ch_->close();
    end_.interrupted_by = interrupted_by_;
    try {
      write_clock_csv(dir_, probes_);
    } catch (const files::WriteError&) {
      // kept in run.json's write_errors by the recorders' check of the directory
    }
    add_two_hosts();
    write_run_json(dir_, run_);  // the offset is read by the analysis from here (analysis/rtt_files.cpp)
  }

  void receive_records() {
    for (;;) {
      const nlohmann::json m = ch_->receive(60.0).value_or(nlohmann::json{{"type", "timeout"}});
      const std::string type = m.value("type", "");
      if (type == "timeout") throw RunError("the agent sent no records for 60 s after the stop");
      if (type == "file") {
        const std::optional<std::string> bytes = ch_->receive_frame(60.0);
        if (!bytes) throw RunError("the agent announced a file and sent none");
        const std::string name = m.value("name", "");
        if (!acceptable_name(name)) {
          run_["notes"].push_back(fmt::format("the agent's file '{}' was not written: not a plain name of the server half", name));
          continue;
        }
        files::write_file(dir_ / name, *bytes);
        ++files_received_;
        bytes_received_ += bytes->size();
        continue;
      }
      if (type == "ended") {
        handle(m);
        continue;
      }
      if (type != "end") continue;
      // The agent's paths (its logs) become this directory's.
      const std::string agent_dir = m.value("dir", "");
      auto here = [&](const nlohmann::json& j) {
        std::string text = j.dump();
        for (std::size_t at; !agent_dir.empty() && (at = text.find(agent_dir)) != std::string::npos;)
          text.replace(at, agent_dir.size(), dir_.string());
        return nlohmann::json::parse(text);
      };
      const nlohmann::json run = here(m.value("run", nlohmann::json::object()));
      for (const char* key : {"proxy", "display", "processes", "app", "interposer", "proxy_interposer", "keyboard_auto_repeat", "window", "end_ns", "start_ns", "machine"})
        if (run.contains(key)) run_[key] = run[key];
      processes_ = here(m.value("processes", nlohmann::json::array())).get<std::vector<nlohmann::json>>();
      end_ = end_from_json(here(m.value("end", nlohmann::json::object())));
      server_ended_ = true;
      // The render host's resource sampler (docs/two-hosts.md "Resources"): its block, summarized
      // there from the resources.csv that came back with the files.
      if (o_.resources) {
        const nlohmann::json block = m.value("resources", nlohmann::json());
        server_resources_ = block.is_object() ? block
                                              : nlohmann::json{{"unavailable", "unavailable: the agent sent no resources block "
                                                                               "(a pictor serve older than this client)"}};
      }
      if (const nlohmann::json& st = m.value("app_status", nlohmann::json()); st.is_object())
        app_status_ = ExitStatus{st.value("exited", false), st.value("code", 0), st.value("signal", 0)};
      return;
    }
  }

  const RunOptions& o_;
  std::string host_;
  int port_;
  std::string where_;
  std::optional<SessionPlan> plan_;
  std::optional<ControlChannel> ch_;
  nlohmann::json welcome_ = nlohmann::json::object();
  std::vector<ClockProbe> probes_;
  fs::path dir_;
  nlohmann::json run_ = nlohmann::json::object();
  std::unique_ptr<net::TcpRelay> relay_;
  std::vector<std::unique_ptr<net::TcpRelay>> stream_relays_;  // stream: input, video
  std::unique_ptr<Client> client_;
  client::ClientStats client_stats_;
  StackEnd end_;
  std::optional<ExitStatus> app_status_;
  std::vector<nlohmann::json> processes_;
  std::int64_t server_start_ns_ = 0;
  nlohmann::json server_resources_;  // the render host's resources block; null: none asked for
  bool server_ended_ = false, agent_lost_ = false;
  int interrupted_by_ = 0;
  std::string stop_reason_ = "after the duration";
  std::size_t files_received_ = 0, bytes_received_ = 0;
  std::string name_;
  std::function<void(const nlohmann::json&)> ignore_ = [](const nlohmann::json&) {};
};

}  // namespace

std::string render_host_resources_label(const std::string& server) {
  return "render host (pictor serve at " + server + ")";
}

RunResult run_two_host_session(const RunOptions& options) {
  const auto [host, port] = parse_host_port(options.server, "--server");
  return TwoHostSession(options, host, port).run();
}

}  // namespace pictor::runner

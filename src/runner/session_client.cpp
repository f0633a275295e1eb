#include "runner/session_client.h"

namespace pictor::runner {

namespace {

class Local final : public Client {
 public:
  explicit Local(std::unique_ptr<client::LocalClient> c) : c_(std::move(c)) {}
  client::ClientStats stop() override { return c_->stop(); }
  void finish_inputs() override { c_->finish_inputs(); }
  bool running() const override { return c_->running(); }
  void add_to_run(nlohmann::json&) const override {}
  const client::RemoteClient* remote() const override { return nullptr; }

 private:
  std::unique_ptr<client::LocalClient> c_;
};

class Remote final : public Client {
 public:
  explicit Remote(std::unique_ptr<client::RemoteClient> c) : c_(std::move(c)) {}
  client::ClientStats stop() override { return c_->stop(); }
  void finish_inputs() override { c_->finish_inputs(); }
  bool running() const override { return c_->running(); }
  void add_to_run(nlohmann::json& run) const override {
    const client::RemoteClientStats rs = c_->rfb_stats();
    run["rfb"] = rs.server;
    run["window"] = {{"x", rs.window.x}, {"y", rs.window.y}, {"width", rs.window.width}, {"height", rs.window.height}};
    run["client"]["updates"] = rs.updates;
    run["client"]["marker_updates"] = rs.marker_updates;
    run["client"]["bytes"] = rs.bytes;
  }
  const client::RemoteClient* remote() const override { return c_.get(); }

 private:
  std::unique_ptr<client::RemoteClient> c_;
};

// An adapter's own client (stream): run.json gets its description as `client.adapter`.
class OwnClient final : public Client {
 public:
  explicit OwnClient(std::unique_ptr<AdapterClient> c) : c_(std::move(c)) {}
  client::ClientStats stop() override { return c_->stop(); }
  void finish_inputs() override { c_->finish_inputs(); }
  bool running() const override { return c_->running(); }
  void add_to_run(nlohmann::json& run) const override { run["client"]["adapter"] = c_->describe(); }
  const client::RemoteClient* remote() const override { return nullptr; }

 private:
  std::unique_ptr<AdapterClient> c_;
};

}  // namespace

std::unique_ptr<Client> wrap_client(std::unique_ptr<AdapterClient> c) { return std::make_unique<OwnClient>(std::move(c)); }
std::unique_ptr<Client> wrap_client(std::unique_ptr<client::LocalClient> c) { return std::make_unique<Local>(std::move(c)); }
std::unique_ptr<Client> wrap_client(std::unique_ptr<client::RemoteClient> c) { return std::make_unique<Remote>(std::move(c)); }

}  // namespace pictor::runner

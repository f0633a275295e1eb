// The one client a stack holds (docs/architecture.md "The runner in phases"): the local client
// (XTest + XDamage on the display) and the RFB client share their life cycle — started with a
// driver, asked to finish the inputs near the end, stopped once — and the runner sees only this.
#pragma once
#include <nlohmann/json.hpp>

#include <memory>

#include "client/local_client.h"
#include "client/remote_client.h"
#include "runner/adapter.h"

namespace pictor::runner {

class Client {
 public:
  virtual ~Client() = default;
  // Ends the client's thread and returns what it did; every call returns the first call's stats.
  virtual client::ClientStats stop() = 0;
  // No new input from here on; frames are still watched so the last inputs are answered.
  virtual void finish_inputs() = 0;
  // False once the client ended by itself (lost connection, window gone, write error).
  virtual bool running() const = 0;
  // After stop(): what run.json records of the client beyond ClientStats (the RFB side's counts).
  virtual void add_to_run(nlohmann::json& run) const = 0;
  // The RFB client, for the network bytes of its socket; null for the local client.
  virtual const client::RemoteClient* remote() const = 0;
};

std::unique_ptr<Client> wrap_client(std::unique_ptr<client::LocalClient> c);
std::unique_ptr<Client> wrap_client(std::unique_ptr<client::RemoteClient> c);
std::unique_ptr<Client> wrap_client(std::unique_ptr<AdapterClient> c);

}  // namespace pictor::runner

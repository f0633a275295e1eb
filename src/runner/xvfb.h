// The embedded default display: a private Xvfb on a free display number (Xvfb picks it with
// -displayfd), listening on its Unix socket only, stopped when this object goes away.
#pragma once
#include <memory>
#include <string>

#include "core/units.h"
#include "runner/process.h"

namespace pictor::runner {

class Xvfb {
 public:
  // Starts Xvfb with one screen of the given size (depth 24) and waits until it accepts
  // connections; throws pictor::RunError naming the cause (Xvfb missing, failed to start).
  // `name`: the process's name in run.json and messages (default "Xvfb"; a viewer's "client Xvfb").
  static std::unique_ptr<Xvfb> start(Size screen, const std::string& log_path = "", const std::string& name = "");
  ~Xvfb();
  const std::string& display() const { return display_; }  // e.g. ":7"
  Process& process() { return process_; }
  const Process& process() const { return process_; }
  ExitStatus stop();

 private:
  Xvfb() = default;
  Process process_;
  std::string display_;
};

}  // namespace pictor::runner

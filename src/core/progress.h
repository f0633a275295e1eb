// Progress on stderr (DESIGN 4b): one updating line on a terminal, plain lines otherwise (at most
// one every few seconds), nothing with --quiet.
#pragma once
#include <string>

namespace pictor {

class Progress {
 public:
  explicit Progress(bool quiet);
  ~Progress();
  void update(const std::string& line);  // transient status
  void note(const std::string& line);    // a line that stays
 private:
  bool quiet_;
  bool tty_;
  bool pending_ = false;
  long long last_plain_ns_ = 0;
};

}  // namespace pictor

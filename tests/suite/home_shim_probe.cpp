// Prints the current user's home as getpwuid() and getpwuid_r() report it: what a game that
// ignores $HOME sees (used by the home shim test).
#include <pwd.h>
#include <unistd.h>

#include <cstdio>

int main() {
  const passwd* a = getpwuid(getuid());
  passwd entry{};
  passwd* b = nullptr;
  char buffer[4096];
  getpwuid_r(getuid(), &entry, buffer, sizeof buffer, &b);
  std::printf("%s %s\n", a ? a->pw_dir : "?", b ? b->pw_dir : "?");
  return 0;
}

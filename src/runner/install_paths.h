// Where Pictor's own pieces are found at run time: the interposer library and the built-in app
// host, next to the running `pictor` (build tree or install tree) or named by PICTOR_HOOK_LIB /
// PICTOR_APP_BIN.
#pragma once
#include <string>

namespace pictor::runner {

std::string find_hook_library();  // throws pictor::RunError when missing
// libpictor_proxyhook.so, preloaded into VNC proxies (PICTOR_PROXY_HOOK_LIB overrides).
std::string find_proxy_hook_library();
std::string find_app_binary();    // throws pictor::RunError when missing
std::string self_directory();     // directory of the running executable

}  // namespace pictor::runner

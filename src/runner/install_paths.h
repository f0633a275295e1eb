// Where Pictor's own pieces are found at run time: the interposer library and the built-in app
// host, next to the running `pictor` (build tree or install tree) or named by PICTOR_HOOK_LIB /
// PICTOR_APP_BIN.
#pragma once
#include <map>
#include <string>

namespace pictor::runner {

std::string find_hook_library();  // throws pictor::RunError when missing
// libpictor_proxyhook.so, preloaded into VNC proxies (PICTOR_PROXY_HOOK_LIB overrides).
std::string find_proxy_hook_library();
std::string find_app_binary();    // throws pictor::RunError when missing
std::string self_directory();     // directory of the running executable

// The directory above Pictor's Vulkan layer manifest (`vulkan/implicit_layer.d/`), next to
// `pictor` in the build or install tree's share/pictor, or named by PICTOR_VK_LAYER_DIR; empty
// when it is missing (Vulkan apps then run unmeasured; GL is unaffected).
std::string find_vulkan_layer_dir();
// What the app's environment needs for the Vulkan loader to find that manifest, on top of the
// interposer's preload (docs/vulkan.md): the directory ahead of the XDG data directories (where
// every loader looks for implicit layers), and ahead of VK_IMPLICIT_LAYER_PATH when that is set
// (newer loaders then look only there). Empty when the manifest is missing.
std::map<std::string, std::string> vulkan_layer_environment();

}  // namespace pictor::runner

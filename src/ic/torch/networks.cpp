#include "ic/torch/networks.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "core/error.h"
#include "core/files.h"
#include "core/json_read.h"

namespace pictor::ic {

namespace fs = std::filesystem;
namespace nn = torch::nn;

DetectorNetImpl::DetectorNetImpl(const NetworkShape& shape, int classes) {
  const auto& ch = shape.detector_channels;
  c1 = register_module("c1", nn::Conv2d(nn::Conv2dOptions(3, ch[0], 3).stride(2).padding(1)));
  c2 = register_module("c2", nn::Conv2d(nn::Conv2dOptions(ch[0], ch[1], 3).stride(2).padding(1)));
  c3 = register_module("c3", nn::Conv2d(nn::Conv2dOptions(ch[1], ch[2], 3).stride(2).padding(1)));
  c4 = register_module("c4", nn::Conv2d(nn::Conv2dOptions(ch[2], ch[3], 3).stride(1).padding(1)));
  head = register_module("head", nn::Conv2d(nn::Conv2dOptions(ch[3], 5 + classes, 1)));
}

torch::Tensor DetectorNetImpl::forward(torch::Tensor x) {
  x = x / 255.0 - 0.5;
  x = torch::relu(c1(x));
  x = torch::relu(c2(x));
  x = torch::relu(c3(x));
  x = torch::relu(c4(x));
  return head(x);
}

PolicyNetImpl::PolicyNetImpl(int features, int hidden, int outputs) {
  lstm = register_module("lstm", nn::LSTM(nn::LSTMOptions(features, hidden).num_layers(1).batch_first(true)));
  out = register_module("out", nn::Linear(hidden, outputs));
}

std::tuple<torch::Tensor, LstmState> PolicyNetImpl::forward(torch::Tensor x, c10::optional<LstmState> state) {
  auto [y, new_state] = lstm(x, state);
  return {out(y), new_state};
}

std::int64_t parameter_count(torch::nn::Module& m) {
  std::int64_t n = 0;
  for (const auto& p : m.parameters()) n += p.numel();
  return n;
}

void save_model_dir(const std::string& dir, const ModelManifest& manifest, DetectorNet& detector, PolicyNet& policy) {
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw RunError(fmt::format("{}: cannot create the model directory: {}", dir, ec.message()));
  // A stale manifest next to half-written weights would load as a mismatched model.
  fs::remove(fs::path(dir) / "manifest.json", ec);
  try {
    torch::save(detector, (fs::path(dir) / "detector.pt").string());
    torch::save(policy, (fs::path(dir) / "policy.pt").string());
  } catch (const c10::Error& e) {
    throw RunError(fmt::format("{}: cannot write the weights: {}", dir, e.what_without_backtrace()));
  }
  const std::string path = (fs::path(dir) / "manifest.json").string();
  std::ofstream out(path, std::ios::trunc);
  out << manifest_json(manifest).dump(2) << "\n";
  if (!out) throw RunError(fmt::format("{}: cannot write", path));
}

namespace {

std::string first_line(const char* text) {
  std::string s(text);
  if (const auto nl = s.find('\n'); nl != std::string::npos) s.resize(nl);
  return s;
}

// torch::load replaces a parameter of another shape instead of failing: compare afterwards.
template <typename Net>
void load_checked(Net& net, const std::string& path) {
  if (!fs::is_regular_file(path)) throw UsageError(fmt::format("{}: missing", path));
  std::vector<std::pair<std::string, std::vector<std::int64_t>>> expected;
  for (const auto& p : net->named_parameters()) expected.emplace_back(p.key(), p.value().sizes().vec());
  try {
    torch::load(net, path);
  } catch (const c10::Error& e) {
    throw UsageError(fmt::format("{}: not a matching parameter archive ({})", path, first_line(e.what_without_backtrace())));
  } catch (const std::exception& e) {
    throw UsageError(fmt::format("{}: not a matching parameter archive ({})", path, first_line(e.what())));
  }
  const auto params = net->named_parameters();
  for (const auto& [name, sizes] : expected) {
    const torch::Tensor* t = params.find(name);
    if (!t || t->sizes().vec() != sizes)
      throw UsageError(fmt::format("{}: parameter '{}' has another shape than manifest.json describes", path, name));
    if (!torch::isfinite(*t).all().item<bool>())
      throw UsageError(fmt::format("{}: parameter '{}' holds NaN or infinite values", path, name));
  }
}

}  // namespace

LoadedNetworks load_model_dir(const std::string& dir) {
  if (!fs::is_directory(dir)) throw UsageError(fmt::format("{}: no such model directory", dir));
  const std::string path = (fs::path(dir) / "manifest.json").string();
  if (!fs::exists(path)) throw UsageError(fmt::format("{}: missing (not a trained model directory)", path));
  LoadedNetworks out;
  out.manifest = parse_manifest(parse_json(files::read_input_file(path), path), path);
  const ModelManifest& m = out.manifest;
  out.detector = DetectorNet(m.shape, static_cast<int>(m.classes.size()));
  out.policy = PolicyNet(m.features.size(), m.shape.policy_hidden, m.policy_outputs());
  load_checked(out.detector, (fs::path(dir) / "detector.pt").string());
  load_checked(out.policy, (fs::path(dir) / "policy.pt").string());
  out.detector->eval();
  out.policy->eval();
  return out;
}

}  // namespace pictor::ic

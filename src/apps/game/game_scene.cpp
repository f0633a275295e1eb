#include "apps/game/game_scene.h"

#include <GL/gl.h>

#include <filesystem>

#include "core/error.h"

namespace pictor::game {

std::vector<apps::SceneOption> GameScene::options() const {
  namespace o = options;
  return {o::integer("seed", "world seed: placement of everything random").within(0, 2'000'000'000).or_default("1"),
          o::number("detail", "load scale: object counts and tessellation").within(0.1, 8.0).or_default("1"),
          o::text("truth", "write ground-truth boxes (YOLO txt per frame + coco.json) into this directory")
              .or_default(""),
          o::integer("truth_every", "write ground truth for every Nth frame").within(1, 1'000'000).or_default("1"),
          o::word("truth_images", {"0", "1"}, "also write each ground-truth frame as a PPM image (slow)").or_default("0"),
          o::text("state", "write the game state log (CSV) to this file").or_default("")};
}

void GameScene::setup(const apps::SceneContext& context) {
  setup_.seed = static_cast<std::uint64_t>(context.options.integer("seed"));
  setup_.detail = static_cast<float>(context.options.number("detail"));
  setup_.width = context.size.width;
  setup_.height = context.size.height;
  const std::string state = context.options.text("state");
  std::unique_ptr<GameSim> sim = definition_.make_sim(setup_);
  if (!state.empty()) {
    std::error_code ec;
    if (const auto parent = std::filesystem::path(state).parent_path(); !parent.empty())
      std::filesystem::create_directories(parent, ec);
    // A RunError "cannot create PATH: …" when it cannot be written.
    state_file_ = files::RowFile::create(state, state_log_header(*sim));
  }
  run_ = std::make_unique<GameRun>(std::move(sim), state.empty() ? nullptr : &state_file_);
  const std::string truth = context.options.text("truth");
  if (!truth.empty())
    truth_ = std::make_unique<TruthWriter>(truth, run_->sim().classes(), setup_.width, setup_.height,
                                           context.options.integer("truth_every"),
                                           context.options.text("truth_images") == "1");
  view_ = definition_.make_view(run_->sim());
  view_->setup();
}

void GameScene::input(const platform::InputEvent& event) { run_->input(event); }

void GameScene::update(double, double dt) {
  // Fixed steps: the game advances by whole 1/60 s steps as the frame clock allows; wall-clock
  // jitter only decides *when* steps run, never what they compute.
  pending_s_ += dt < kMaxCatchUpSeconds ? dt : kMaxCatchUpSeconds;
  while (pending_s_ >= GameSim::kStepSeconds) {
    run_->step();
    pending_s_ -= GameSim::kStepSeconds;
  }
}

void GameScene::draw() {
  view_->draw();
  if (truth_ && truth_->wants(frame_)) {
    truth_->write_frame(frame_, screen_boxes(run_->sim()));
    if (truth_->images()) {
      pixels_.resize(static_cast<std::size_t>(setup_.width) * static_cast<std::size_t>(setup_.height) * 3);
      glPixelStorei(GL_PACK_ALIGNMENT, 1);
      glReadPixels(0, 0, setup_.width, setup_.height, GL_RGB, GL_UNSIGNED_BYTE, pixels_.data());
      truth_->write_image(frame_, pixels_);
    }
  }
  ++frame_;
}

void GameScene::teardown() {
  if (view_) view_->teardown();
  if (run_) run_->finish();
  if (truth_) truth_->finish();
}

}  // namespace pictor::game

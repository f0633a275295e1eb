#include "core/json_read.h"

namespace pictor {

namespace {
struct TooDeep {};
}  // namespace

nlohmann::json parse_json(std::string_view text, const std::string& where, int max_depth) {
  const auto limit = [max_depth](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if ((event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start) &&
        depth >= max_depth)
      throw TooDeep{};
    return true;
  };
  try {
    return nlohmann::json::parse(text.begin(), text.end(), limit);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(where + ": not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::exception&) {
    // A number beyond a double's range ("1E400") is out_of_range, with no position.
    throw UsageError(where + ": not valid JSON (a number beyond a double's range)");
  } catch (const TooDeep&) {
    throw UsageError(where + ": JSON nested more than " + std::to_string(max_depth) + " levels deep");
  }
}

}  // namespace pictor

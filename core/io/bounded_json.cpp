#include "core/io/bounded_json.h"

#include <stdexcept>

namespace rfscope {
namespace {

using Json = nlohmann::json;

// Thrown by the parser callback: a document nested 100,000 deep would otherwise overflow the stack
// when copied or destroyed.
struct TooDeep {};

}  // namespace

std::string jsonErrorWithoutTag(const Json::exception& e) {
  const std::string what = e.what();
  const auto tagEnd = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && tagEnd != std::string::npos
             ? what.substr(tagEnd + 2)
             : what;
}

std::string shownJson(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "…";
  return text;
}

Json parseBoundedJson(std::string_view text, int maxNesting, const std::string& hint) {
  const auto limitNesting = [maxNesting](int depth, Json::parse_event_t event, Json&) {
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= maxNesting)
      throw TooDeep{};
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), limitNesting);
  } catch (const TooDeep&) {
    throw std::runtime_error("JSON nested more than " + std::to_string(maxNesting) +
                             " levels deep; " + hint);
  } catch (const Json::exception& e) {  // a parse error, or a number out of range ("1e999")
    throw std::runtime_error("not valid JSON: " + jsonErrorWithoutTag(e));
  }
}

}  // namespace rfscope

#include "ui/session.h"

#include <QFile>
#include <stdexcept>

#include "core/data/input_file.h"
#include "core/experiments/experiment_registry.h"
#include "core/io/atomic_file.h"
#include "core/io/json_export.h"
#include "core/io/parameter_set_json.h"

namespace rfscope::ui {
namespace {

constexpr int kFormatVersion = 1;

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& message) {
  throw std::runtime_error(message);
}

// A JSON value as shown in messages: short, and printable whatever bytes its strings hold.
std::string shown(const Json& value) {
  std::string text = value.dump(-1, ' ', false, Json::error_handler_t::replace);
  if (text.size() > 60) text = text.substr(0, 57) + "…";
  return text;
}

const Json* member(const Json& object, const char* key) {
  const auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

nlohmann::json rangeToJson(const std::optional<std::pair<double, double>>& range) {
  if (!range) return nullptr;
  return Json::array({range->first, range->second});
}

std::optional<std::pair<double, double>> rangeFromJson(const Json& view, const char* key) {
  const Json* json = member(view, key);
  if (!json || json->is_null()) return std::nullopt;
  if (!json->is_array() || json->size() != 2 || !(*json)[0].is_number() ||
      !(*json)[1].is_number() || !((*json)[0].get<double>() < (*json)[1].get<double>()))
    fail(std::string("view.") + key + " must be [lower, upper] with lower < upper, not " +
         shown(*json));
  return std::make_pair((*json)[0].get<double>(), (*json)[1].get<double>());
}

std::optional<bool> flagFromJson(const Json& view, const char* key) {
  const Json* json = member(view, key);
  if (!json || json->is_null()) return std::nullopt;
  if (!json->is_boolean())
    fail(std::string("view.") + key + " must be true, false or null, not " + shown(*json));
  return json->get<bool>();
}

// "[json.exception.parse_error.101] parse error at line 1, column 2: …" without its tag.
std::string withoutTag(const Json::exception& e) {
  const std::string what = e.what();
  const auto tagEnd = what.find("] ");
  return what.rfind("[json.exception.", 0) == 0 && tagEnd != std::string::npos
             ? what.substr(tagEnd + 2)
             : what;
}

// Nesting beyond the limit stops the parser before it builds the value: a document nested 100,000
// deep would otherwise overflow the stack when copied or destroyed.
struct TooDeep {};

Json parseBounded(std::string_view text) {
  const auto limitNesting = [](int depth, Json::parse_event_t event, Json&) {
    if ((event == Json::parse_event_t::object_start || event == Json::parse_event_t::array_start) &&
        depth >= kMaxSessionNesting)
      throw TooDeep{};
    return true;
  };
  try {
    return Json::parse(text.begin(), text.end(), limitNesting);
  } catch (const TooDeep&) {
    fail("JSON nested more than " + std::to_string(kMaxSessionNesting) +
         " levels deep; a session is nested at most 3 levels deep");
  } catch (const Json::exception& e) {  // a parse error, or a number out of range ("1e999")
    fail("not valid JSON: " + withoutTag(e));
  }
}

}  // namespace

nlohmann::json sessionToJson(const Session& session) {
  Json hidden = Json::array();
  for (const QString& label : session.view.hiddenSeries)
    hidden.push_back(label.toStdString());
  auto flag = [](const std::optional<bool>& f) { return f ? Json(*f) : Json(nullptr); };
  return {{"format", "rfscope-session"},
          {"version", kFormatVersion},
          {"app_version", RFSCOPE_VERSION},
          {"experiment", session.experimentId},
          {"parameters", parameterSetToJson(session.parameters)},
          {"view",
           {{"x_log", flag(session.view.xLog)},
            {"y_log", flag(session.view.yLog)},
            {"x_range", rangeToJson(session.view.xRange)},
            {"y_range", rangeToJson(session.view.yRange)},
            {"hidden_series", hidden}}}};
}

std::string sessionToText(const Session& session) {
  return sessionToJson(session).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

Session sessionFromJson(const nlohmann::json& json) {
  const Json* format = json.is_object() ? member(json, "format") : nullptr;
  if (!format || !format->is_string() || format->get<std::string>() != "rfscope-session")
    fail("not an RFScope session (missing \"format\": \"rfscope-session\")");
  // Exactly the integer 1: not 1.5, true or 4294967297, which a lenient read would take for 1.
  const Json* version = member(json, "version");
  if (!version) fail("\"version\" is missing (this app reads session version 1)");
  if (!version->is_number_integer() ||
      (version->is_number_unsigned() ? version->get<std::uint64_t>() != kFormatVersion
                                     : version->get<std::int64_t>() != kFormatVersion))
    fail("unsupported session \"version\" " + shown(*version) +
         " (this app reads session version 1)");

  Session session;
  const Json* experimentId = member(json, "experiment");
  if (!experimentId || !experimentId->is_string())
    fail("\"experiment\" must be an experiment id (a string), not " +
         (experimentId ? shown(*experimentId) : std::string("missing")));
  session.experimentId = experimentId->get<std::string>();
  const Experiment* experiment = findExperiment(session.experimentId);
  if (!experiment) fail("unknown \"experiment\" " + shown(*experimentId));
  std::vector<ParameterError> errors;
  const Json* parameters = member(json, "parameters");
  session.parameters = parameterSetFromJson(experiment->parameters(),
                                            parameters ? *parameters : Json::object(), errors);
  if (errors.empty()) errors = experiment->crossValidate(session.parameters);
  if (!errors.empty()) {
    std::string message;
    for (const auto& e : errors)
      message += (message.empty() ? "" : "; ") + e.message;
    fail(message);
  }
  const Json* viewMember = member(json, "view");
  const Json view = viewMember ? *viewMember : Json::object();
  if (!view.is_object()) fail("\"view\" must be an object, not " + shown(view));
  session.view.xLog = flagFromJson(view, "x_log");
  session.view.yLog = flagFromJson(view, "y_log");
  session.view.xRange = rangeFromJson(view, "x_range");
  session.view.yRange = rangeFromJson(view, "y_range");
  if (const Json* hidden = member(view, "hidden_series")) {
    if (!hidden->is_array()) fail("view.hidden_series must be a list of labels");
    for (const auto& label : *hidden) {
      if (!label.is_string()) fail("view.hidden_series must be a list of labels (strings)");
      session.view.hiddenSeries.insert(QString::fromStdString(label.get<std::string>()));
    }
  }
  return session;
}

Session sessionFromText(std::string_view text) {
  if (text.size() > kMaxSessionFileBytes)
    fail("a session may be at most " + describeByteCount(kMaxSessionFileBytes));
  const Json json = parseBounded(text);
  try {
    return sessionFromJson(json);
  } catch (const Json::exception& e) {  // not expected: every access above checks its type first
    fail(withoutTag(e));
  }
}

void saveSession(const QString& path, const Session& session) {
  writeFileAtomically(QFile::encodeName(path).toStdString(), sessionToText(session));
}

Session loadSession(const QString& path) {
  // A regular file only, size checked first: "cannot read session 'file': cannot open: No such
  // file or directory", "… 'file': is a FIFO (named pipe), not a regular file; …".
  std::string text;
  try {
    text = readInputFile(QFile::encodeName(path).toStdString(), kMaxSessionFileBytes, "session");
  } catch (const std::exception& e) {
    fail(std::string("cannot read session ") + e.what());
  }
  try {
    return sessionFromText(text);
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path.toStdString() + "': " + e.what());
  }
}

}  // namespace rfscope::ui

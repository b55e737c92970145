#include "ui/session.h"

#include <QFile>
#include <stdexcept>

#include "core/data/input_file.h"
#include "core/experiments/experiment_registry.h"
#include "core/io/atomic_file.h"
#include "core/io/bounded_json.h"
#include "core/io/json_export.h"
#include "core/io/json_result_reader.h"
#include "core/io/parameter_set_json.h"

namespace rfscope::ui {
namespace {

constexpr int kFormatVersion = 1;

using Json = nlohmann::json;

[[noreturn]] void fail(const std::string& message) {
  throw std::runtime_error(message);
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
         shownJson(*json));
  return std::make_pair((*json)[0].get<double>(), (*json)[1].get<double>());
}

std::optional<bool> flagFromJson(const Json& view, const char* key) {
  const Json* json = member(view, key);
  if (!json || json->is_null()) return std::nullopt;
  if (!json->is_boolean())
    fail(std::string("view.") + key + " must be true, false or null, not " + shownJson(*json));
  return json->get<bool>();
}

// A session holds its result at most 6 levels deep (result.table.columns[i].values).
Json parseBounded(std::string_view text) {
  return parseBoundedJson(text, kMaxSessionNesting, "a session is nested at most 6 levels deep");
}

Json resultToJson(const SessionResult& result) {
  Json json{{"warnings", result.warnings}, {"table", tableToJson(result.table)}};
  if (result.seconds) json["seconds"] = *result.seconds;
  return json;
}

SessionResult resultFromJson(const Json& json) {
  if (!json.is_object()) fail("\"result\" must be an object, not " + shownJson(json));
  SessionResult result;
  if (const Json* warnings = member(json, "warnings")) {
    if (!warnings->is_array()) fail("result.warnings must be a list of texts");
    for (const auto& warning : *warnings) {
      if (!warning.is_string()) fail("result.warnings must be a list of texts (strings)");
      result.warnings.push_back(warning.get<std::string>());
    }
  }
  if (const Json* seconds = member(json, "seconds"); seconds && !seconds->is_null()) {
    if (!seconds->is_number() || !(seconds->get<double>() >= 0))
      fail("result.seconds must be a number of seconds, not " + shownJson(*seconds));
    result.seconds = seconds->get<double>();
  }
  const Json* table = member(json, "table");
  if (!table) fail("result.table is missing");
  result.table = tableFromJson(*table, "result.table");
  return result;
}

}  // namespace

nlohmann::json sessionToJson(const Session& session) {
  Json hidden = Json::array();
  for (const QString& label : session.view.hiddenSeries)
    hidden.push_back(label.toStdString());
  auto flag = [](const std::optional<bool>& f) { return f ? Json(*f) : Json(nullptr); };
  Json json{{"format", "rfscope-session"},
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
  if (session.result) json["result"] = resultToJson(*session.result);
  return json;
}

std::string sessionToText(const Session& session, SessionResultSaved* saved) {
  const auto text = [](const Json& json) {
    return json.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  };
  std::string full = text(sessionToJson(session));
  SessionResultSaved outcome = session.result ? SessionResultSaved::Kept : SessionResultSaved::None;
  if (session.result && full.size() > kMaxSessionFileBytes) {
    Session withoutResult = session;
    withoutResult.result.reset();
    full = text(sessionToJson(withoutResult));
    outcome = SessionResultSaved::TooLarge;
  }
  if (saved) *saved = outcome;
  return full;
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
    fail("unsupported session \"version\" " + shownJson(*version) +
         " (this app reads session version 1)");

  Session session;
  const Json* experimentId = member(json, "experiment");
  if (!experimentId || !experimentId->is_string())
    fail("\"experiment\" must be an experiment id (a string), not " +
         (experimentId ? shownJson(*experimentId) : std::string("missing")));
  session.experimentId = experimentId->get<std::string>();
  const Experiment* experiment = findExperiment(session.experimentId);
  if (!experiment) fail("unknown \"experiment\" " + shownJson(*experimentId));
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
  if (!view.is_object()) fail("\"view\" must be an object, not " + shownJson(view));
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
  if (const Json* result = member(json, "result"); result && !result->is_null())
    session.result = resultFromJson(*result);
  return session;
}

Session sessionFromText(std::string_view text) {
  if (text.size() > kMaxSessionFileBytes)
    fail("a session may be at most " + describeByteCount(kMaxSessionFileBytes));
  const Json json = parseBounded(text);
  try {
    return sessionFromJson(json);
  } catch (const Json::exception& e) {  // not expected: every access above checks its type first
    fail(jsonErrorWithoutTag(e));
  }
}

SessionResultSaved saveSession(const QString& path, const Session& session) {
  SessionResultSaved saved = SessionResultSaved::None;
  const std::string text = sessionToText(session, &saved);
  writeFileAtomically(QFile::encodeName(path).toStdString(), text);
  return saved;
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

#include "ui/session.h"

#include <QFile>
#include <stdexcept>

#include "core/experiments/experiment_registry.h"
#include "core/io/atomic_file.h"
#include "core/io/json_export.h"
#include "core/io/parameter_set_json.h"

namespace rfscope::ui {
namespace {

constexpr int kFormatVersion = 1;

nlohmann::json rangeToJson(const std::optional<std::pair<double, double>>& range) {
  if (!range) return nullptr;
  return nlohmann::json::array({range->first, range->second});
}

std::optional<std::pair<double, double>> rangeFromJson(const nlohmann::json& json,
                                                       const char* key) {
  if (json.is_null()) return std::nullopt;
  if (!json.is_array() || json.size() != 2 || !json[0].is_number() || !json[1].is_number() ||
      !(json[0].get<double>() < json[1].get<double>()))
    throw std::runtime_error(std::string("view.") + key +
                             " must be [lower, upper] with lower < upper");
  return std::make_pair(json[0].get<double>(), json[1].get<double>());
}

std::optional<bool> flagFromJson(const nlohmann::json& json, const char* key) {
  if (json.is_null()) return std::nullopt;
  if (!json.is_boolean())
    throw std::runtime_error(std::string("view.") + key + " must be true, false or null");
  return json.get<bool>();
}

}  // namespace

nlohmann::json sessionToJson(const Session& session) {
  nlohmann::json hidden = nlohmann::json::array();
  for (const QString& label : session.view.hiddenSeries)
    hidden.push_back(label.toStdString());
  auto flag = [](const std::optional<bool>& f) {
    return f ? nlohmann::json(*f) : nlohmann::json(nullptr);
  };
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

Session sessionFromJson(const nlohmann::json& json) {
  if (!json.is_object() || json.value("format", "") != "rfscope-session")
    throw std::runtime_error("not an RFScope session (missing \"format\": \"rfscope-session\")");
  if (json.value("version", 0) != kFormatVersion)
    throw std::runtime_error("unsupported session version " +
                             json.value("version", nlohmann::json()).dump());
  Session session;
  session.experimentId = json.value("experiment", "");
  const Experiment* experiment = findExperiment(session.experimentId);
  if (!experiment) throw std::runtime_error("unknown experiment '" + session.experimentId + "'");
  std::vector<ParameterError> errors;
  session.parameters = parameterSetFromJson(
      experiment->parameters(), json.value("parameters", nlohmann::json::object()), errors);
  if (errors.empty()) errors = experiment->crossValidate(session.parameters);
  if (!errors.empty()) {
    std::string message;
    for (const auto& e : errors)
      message += (message.empty() ? "" : "; ") + e.message;
    throw std::runtime_error(message);
  }
  const nlohmann::json view = json.value("view", nlohmann::json::object());
  if (!view.is_object()) throw std::runtime_error("view must be an object");
  session.view.xLog = flagFromJson(view.value("x_log", nlohmann::json()), "x_log");
  session.view.yLog = flagFromJson(view.value("y_log", nlohmann::json()), "y_log");
  session.view.xRange = rangeFromJson(view.value("x_range", nlohmann::json()), "x_range");
  session.view.yRange = rangeFromJson(view.value("y_range", nlohmann::json()), "y_range");
  const nlohmann::json hidden = view.value("hidden_series", nlohmann::json::array());
  if (!hidden.is_array()) throw std::runtime_error("view.hidden_series must be a list of labels");
  for (const auto& label : hidden) {
    if (!label.is_string()) throw std::runtime_error("view.hidden_series must be a list of labels");
    session.view.hiddenSeries.insert(QString::fromStdString(label.get<std::string>()));
  }
  return session;
}

void saveSession(const QString& path, const Session& session) {
  writeFileAtomically(QFile::encodeName(path).toStdString(), sessionToJson(session).dump(2) + "\n");
}

Session loadSession(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly))
    throw std::runtime_error("cannot read '" + path.toStdString() +
                             "': " + file.errorString().toStdString());
  const QByteArray bytes = file.readAll();
  nlohmann::json json;
  try {
    json = nlohmann::json::parse(bytes.constData(), bytes.constData() + bytes.size());
  } catch (const nlohmann::json::parse_error& e) {
    throw std::runtime_error("'" + path.toStdString() + "' is not valid JSON: " + e.what());
  }
  try {
    return sessionFromJson(json);
  } catch (const std::exception& e) {
    throw std::runtime_error("'" + path.toStdString() + "': " + e.what());
  }
}

}  // namespace rfscope::ui

#include "core/io/json_export.h"

#include <limits>
#include <utility>

#include "core/couplings/coupling.h"
#include "core/data/regime.h"
#include "core/experiments/experiment_registry.h"
#include "core/experiments/preset.h"
#include "core/mechanisms/mechanism_registry.h"

namespace rfscope {

nlohmann::json parameterValueToJson(const ParameterValue& value) {
  return std::visit([](const auto& v) { return nlohmann::json(v); }, value);
}

nlohmann::json parameterSpecToJson(const ParameterSpec& spec) {
  nlohmann::json j{{"key", spec.key},
                   {"label", spec.label},
                   {"help", spec.help},
                   {"type", parameterTypeId(spec.type)},
                   {"default", parameterValueToJson(spec.defaultValue)}};
  if (!spec.unit.empty()) j["unit"] = spec.unit;
  if (!spec.group.empty()) j["group"] = spec.group;
  if (spec.type == ParameterType::Integer || spec.type == ParameterType::Real) {
    j["minimum"] = spec.minimum;
    j["maximum"] = spec.maximum;
    if (spec.logScale) j["log_scale"] = true;
  }
  if (!spec.choices.empty()) {
    j["choices"] = nlohmann::json::array();
    for (const auto& c : spec.choices)
      j["choices"].push_back({{"id", c.id}, {"label", c.label}});
  }
  if (!spec.fileFilter.empty()) j["file_filter"] = spec.fileFilter;
  if (!spec.visibleWhenKey.empty())
    j["visible_when"] = {{"key", spec.visibleWhenKey}, {"values", spec.visibleWhenValues}};
  if (spec.optional) {
    j["optional"] = true;
    j["auto"] = spec.autoLabel;
  }
  return j;
}

nlohmann::json parameterSetToJson(const ParameterSet& set) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [key, value] : set.values()) {
    const double* real = std::get_if<double>(&value);
    j[key] = real ? finiteOrNull(*real) : parameterValueToJson(value);
  }
  return j;
}

const char* seriesStyleId(SeriesStyle style) {
  switch (style) {
    case SeriesStyle::Line:
      return "line";
    case SeriesStyle::Points:
      return "points";
    case SeriesStyle::LineAndPoints:
      return "line-and-points";
  }
  return "line";
}

nlohmann::json tableToJson(const Table& table) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : table.columns) {
    nlohmann::json values = nlohmann::json::array();
    for (double v : c.values)
      values.push_back(finiteOrNull(v));
    columns.push_back({{"key", c.key}, {"label", c.label}, {"values", values}});
  }
  nlohmann::json series = nlohmann::json::array();
  for (const auto& s : table.hints.series) {
    nlohmann::json entry{{"label", s.label},     {"y", s.yColumn},          {"low", s.lowColumn},
                         {"high", s.highColumn}, {"color_key", s.colorKey}, {"warning", s.warning}};
    if (s.secondaryAxis) entry["secondary_axis"] = true;
    // Lines are the default; points (estimates with error bars, observations) say so.
    if (s.style != SeriesStyle::Line) entry["style"] = seriesStyleId(s.style);
    if (!s.shortLabel.empty()) entry["short_label"] = s.shortLabel;
    series.push_back(entry);
  }
  nlohmann::json plot{{"title", table.hints.title},
                      {"x", table.hints.xColumn},
                      {"x_label", table.hints.xLabel},
                      {"y_label", table.hints.yLabel},
                      {"x_log", table.hints.xLog},
                      {"y_log", table.hints.yLog},
                      {"series", series}};
  if (!table.hints.y2Label.empty()) {
    plot["y2_label"] = table.hints.y2Label;
    plot["y2_log"] = table.hints.y2Log;
  }
  // The axes' labels for paper sizes, where the experiment gives them.
  for (const auto& [key, label] : {std::pair{"x_short_label", &table.hints.xShortLabel},
                                   std::pair{"y_short_label", &table.hints.yShortLabel},
                                   std::pair{"y2_short_label", &table.hints.y2ShortLabel}})
    if (!label->empty()) plot[key] = *label;
  if (table.hints.kind == PlotKind::GroupedBars) plot["bars"] = true;
  if (!table.hints.xValueNames.empty()) {
    nlohmann::json names = nlohmann::json::array();
    for (const auto& [value, name] : table.hints.xValueNames)
      names.push_back({{"x", value}, {"name", name}});
    plot["x_value_names"] = names;
  }
  if (!table.hints.xMarkers.empty()) {
    nlohmann::json markers = nlohmann::json::array();
    for (const XMarker& marker : table.hints.xMarkers)
      markers.push_back({{"x", marker.x}, {"label", marker.label}, {"color", marker.colorKey}});
    plot["x_markers"] = markers;
  }
  return {{"columns", columns}, {"plot", plot}};
}

nlohmann::json catalogToJson() {
  nlohmann::json experiments = nlohmann::json::array();
  for (const Experiment* e : allExperiments()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& spec : e->parameters())
      params.push_back(parameterSpecToJson(spec));
    experiments.push_back({{"id", e->info().id},
                           {"title", e->info().title},
                           {"group", e->info().group},
                           {"description", e->info().description},
                           {"parameters", params}});
  }
  nlohmann::json mechanisms = nlohmann::json::array();
  for (const Mechanism* m : allMechanisms()) {
    nlohmann::json params = nlohmann::json::array();
    for (const auto& spec : m->parameters())
      params.push_back(parameterSpecToJson(spec));
    const auto& info = m->info();
    nlohmann::json closedForms = nlohmann::json::array();  // couplings with an exact variance
    for (const CouplingInfo& coupling : allCouplings())
      if (m->hasClosedForm(coupling.coupling)) closedForms.push_back(coupling.id);
    mechanisms.push_back({{"id", info.id},
                          {"closed_forms", closedForms},
                          {"name", info.name},
                          {"description", info.description},
                          {"reference", info.reference},
                          {"positive", info.positive},
                          {"bounded", info.bounded},
                          {"parameters", params}});
  }
  nlohmann::json couplings = nlohmann::json::array();
  for (const auto& c : allCouplings())
    couplings.push_back({{"id", c.id}, {"name", c.name}, {"description", c.description}});
  nlohmann::json regimes = nlohmann::json::array();
  for (const Regime* r : allRegimes())
    regimes.push_back({{"id", r->info().id}, {"description", r->info().description}});
  nlohmann::json presets = nlohmann::json::array();
  for (const Preset& p : allPresets()) {
    nlohmann::json values = nlohmann::json::object();
    for (const auto& [key, value] : p.values)
      values[key] = value;
    nlohmann::json preset{{"id", p.id},
                          {"title", p.title},
                          {"experiment", p.experimentId},
                          {"description", p.description},
                          {"teaching", p.teaching},
                          {"values", values}};
    nlohmann::json assertions = nlohmann::json::array();
    for (const Assertion& assertion : p.claim.assertions)
      assertions.push_back(assertion.text);
    preset["claim"] = {{"text", p.claim.text}, {"assertions", assertions}};
    if (p.xLog) preset["x_log"] = *p.xLog;
    if (p.yLog) preset["y_log"] = *p.yLog;
    presets.push_back(preset);
  }
  return {
      {"experiments", experiments}, {"presets", presets},
      {"mechanisms", mechanisms},   {"couplings", couplings},
      {"regimes", regimes},         {"kernels", nlohmann::json::array({"gaussian", "softmax"})}};
}

}  // namespace rfscope

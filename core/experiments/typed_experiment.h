#pragma once
// An experiment with typed settings: it parses its ParameterSet once (parse) into a settings
// struct and runs on that (runWith), so that no string-keyed lookup reaches the computation.
//
//   struct MySettings { double sigma; std::vector<Coupling> couplings; ... };
//   class MyExperiment final : public TypedExperiment<MySettings> {
//     MySettings parse(const ParameterSet& params) const override;
//     RunResult runWith(const MySettings& settings, RunContext& context) const override;
//   };
// parse() sees parameters that passed validate(); crossValidate() may call it too.

#include <initializer_list>
#include <string>
#include <utility>

#include "core/experiments/experiment.h"

namespace rfscope {

template <class Settings>
class TypedExperiment : public Experiment {
 public:
  RunResult run(const ParameterSet& params, RunContext& context) const final {
    return runWith(parse(params), context);
  }
  virtual Settings parse(const ParameterSet& params) const = 0;

 protected:
  virtual RunResult runWith(const Settings& settings, RunContext& context) const = 0;
};

// The enum value of a Choice parameter's id, from a table of (id, value) — the one place an
// experiment maps its choice ids to an enum.
template <class Enum>
Enum choiceValue(const ParameterSet& params, const std::string& key,
                 std::initializer_list<std::pair<const char*, Enum>> table) {
  const std::string& id = params.choice(key);
  for (const auto& [choice, value] : table)
    if (id == choice) return value;
  return table.begin()->second;  // validate() admits only listed ids
}

}  // namespace rfscope

#pragma once
// GoogleTest prints a parameter of a parameterised test in its name and failures: an experiment
// or a mechanism prints as its id, not as a pointer.

#include <ostream>

#include "core/experiments/experiment.h"
#include "core/mechanisms/mechanism.h"

namespace rfscope {

inline void PrintTo(const Experiment* experiment, std::ostream* out) {
  *out << (experiment ? experiment->info().id : "(no experiment)");
}

inline void PrintTo(const Mechanism* mechanism, std::ostream* out) {
  *out << (mechanism ? mechanism->info().id : "(no mechanism)");
}

}  // namespace rfscope

#pragma once
// Bad input: the one exception RFScope throws for a value a user (or a caller passing user input)
// got wrong. It names the parameter, so that the CLI can report it (exit status 2) and the GUI can
// mark the field. Cases where the input is fine but there is no answer (no closed form, a
// combination the sampler does not offer) are not errors: they come back as an Outcome with the
// reason (core/math/outcome.h). Programmer misuse is asserted.

#include <stdexcept>
#include <string>

namespace rfscope {

class InvalidParameter : public std::invalid_argument {
 public:
  // parameter: the key of the offending parameter ("" when the problem is not one parameter's);
  // message: a full sentence, e.g. "unknown coupling 'fancy'".
  InvalidParameter(std::string parameter, const std::string& message)
      : std::invalid_argument(message), parameter_(std::move(parameter)) {}
  const std::string& parameter() const { return parameter_; }

 private:
  std::string parameter_;
};

}  // namespace rfscope

#pragma once
// A problem with input data (a file the user picked, a dimension the data cannot provide), with a
// message fit to show the user as is: it names the file and says what is wrong. Bad input, so an
// InvalidParameter: parameter() names the parameter whose value caused it ("" when unknown), so
// that validation can point at the right control.

#include <string>

#include "core/params/invalid_parameter.h"

namespace rfscope {

class DataError : public InvalidParameter {
 public:
  explicit DataError(const std::string& message, std::string parameterKey = {})
      : InvalidParameter(std::move(parameterKey), message) {}
};

}  // namespace rfscope

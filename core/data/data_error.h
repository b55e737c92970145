#pragma once
// A problem with input data (a file the user picked, a dimension the data cannot provide), with a
// message fit to show the user as is: it names the file and says what is wrong.

#include <stdexcept>
#include <string>

namespace rfscope {

class DataError : public std::runtime_error {
 public:
  explicit DataError(const std::string& message, std::string parameterKey = {})
      : std::runtime_error(message), parameterKey_(std::move(parameterKey)) {}

  // The parameter whose value caused the problem ("" when unknown), so that validation can point
  // at the right control.
  const std::string& parameterKey() const { return parameterKey_; }

 private:
  std::string parameterKey_;
};

}  // namespace rfscope

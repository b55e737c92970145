#pragma once
// A set of parameter values keyed by parameter key, validated against specs in one place.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/params/parameter_spec.h"

namespace rfscope {

struct ParameterError {
  std::string key;      // the offending parameter ("" for errors about the set as a whole)
  std::string message;  // full sentence naming the problem
};

// What a mechanism derived from the statistics of data sets that no scalar parameter can hold
// (DERF's d×d matrices): immutable, shared by the copies of a set, opaque to everything but the
// mechanism that made it (it is neither shown, validated nor written out).
class ParameterAttachment {
 public:
  virtual ~ParameterAttachment() = default;
};

class ParameterSet {
 public:
  ParameterSet() = default;

  // The specs' defaults, to be overridden by set().
  static ParameterSet defaults(const std::vector<ParameterSpec>& specs);

  void set(const std::string& key, ParameterValue value) { values_[key] = std::move(value); }
  bool contains(const std::string& key) const { return values_.count(key) != 0; }
  const ParameterValue* find(const std::string& key) const;
  const std::map<std::string, ParameterValue>& values() const { return values_; }

  // Typed access; the set must have been validated (throws std::out_of_range/bad_variant_access
  // on misuse, which is a programming error).
  std::int64_t integer(const std::string& key) const;
  double real(const std::string& key) const;  // also accepts integers
  bool boolean(const std::string& key) const;
  const std::string& choice(const std::string& key) const;
  const std::vector<std::string>& choices(const std::string& key) const;

  void attach(std::shared_ptr<const ParameterAttachment> attachment) {
    attachment_ = std::move(attachment);
  }
  const std::shared_ptr<const ParameterAttachment>& attachment() const { return attachment_; }

  // Equal values and the same attachment (the same object, or none).
  bool operator==(const ParameterSet&) const = default;

 private:
  std::map<std::string, ParameterValue> values_;
  std::shared_ptr<const ParameterAttachment> attachment_;
};

// Parses a value typed on the command line or in a text field ("64", "0.5", "true", "trig,pos").
// Throws InvalidParameter naming the parameter when the text is not a value of its type.
ParameterValue parseParameterValue(const ParameterSpec& spec, std::string_view text);

// Whether two values are the same choice: equal, or a multi-choice listing the same ids in another
// order (the app's panel lists a multi-choice in the registry's order, a preset as written).
bool sameParameterValue(const ParameterValue& a, const ParameterValue& b);

// Renders a value the way parseParameterValue reads it back (round-trips exactly).
std::string formatParameterValue(const ParameterValue& value);

// What a text holds read as a double: a finite number (stored in `value`), text that is no number,
// a number a double holds only as inf or nan ("inf"), or one beyond a double either way ("1e400",
// "1e-400").
enum class RealText { Finite, NotANumber, NotFinite, TooLarge, TooSmall };
RealText parseReal(const std::string& text, double& value);
// Why `text`, read as `kind` (not Finite), is refused: "'x' is not a number", "'1e-400' is too
// small for a double: it underflows …".
std::string realTextProblem(RealText kind, const std::string& text);

// Checks that every key is known, every value has the right type and lies in its domain, and that
// every spec has a value. One message per violated rule.
std::vector<ParameterError> validateParameters(const std::vector<ParameterSpec>& specs,
                                               const ParameterSet& set);

const ParameterSpec* findSpec(const std::vector<ParameterSpec>& specs, std::string_view key);

}  // namespace rfscope

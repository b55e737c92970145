#pragma once
// A value, or the reason there is none: the status RFScope returns where the input is fine but the
// question has no answer — no closed form for this case, a combination the sampler does not offer,
// a variance that is infinite. Not an error (bad input throws InvalidParameter, misuse asserts).
//
//   Outcome<double> v = ...;
//   if (!v) report(v.reason()); else use(*v);

#include <cassert>
#include <optional>
#include <string>
#include <utility>

namespace rfscope {

template <class T>
class Outcome {
 public:
  Outcome(T value) : value_(std::move(value)) {}  // NOLINT: implicit, like std::optional
  static Outcome unavailable(std::string reason) {
    Outcome outcome;
    outcome.reason_ = std::move(reason);
    return outcome;
  }

  bool available() const { return value_.has_value(); }
  explicit operator bool() const { return available(); }
  // The reason there is no value (empty when there is one).
  const std::string& reason() const { return reason_; }

  const T& value() const& {
    assert(available());
    return *value_;
  }
  T& value() & {
    assert(available());
    return *value_;
  }
  T&& value() && {
    assert(available());
    return std::move(*value_);
  }
  // Makes the outcome available with a value built in place (no copy of T), and returns it.
  template <class... Args>
  T& emplace(Args&&... args) {
    reason_.clear();
    return value_.emplace(std::forward<Args>(args)...);
  }

  const T& operator*() const& { return value(); }
  T& operator*() & { return value(); }
  const T* operator->() const { return &value(); }
  T* operator->() { return &value(); }

 private:
  Outcome() = default;
  std::optional<T> value_;
  std::string reason_;
};

// A status without a value: fine, or the reason not (e.g. whether a backend samples a plan).
struct Fine {};
using Status = Outcome<Fine>;
inline Status fine() {
  return Fine{};
}

}  // namespace rfscope

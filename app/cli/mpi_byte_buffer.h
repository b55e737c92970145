#pragma once
// Plain values into and out of the bytes of an MPI message (the ranks of a job run the same
// executable on the same architecture, so trivially copyable values travel as they are).

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace rfscope::cli {

class ByteWriter {
 public:
  template <class T>
  void put(const T& value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto* p = reinterpret_cast<const char*>(&value);
    bytes_.insert(bytes_.end(), p, p + sizeof(T));
  }
  template <class T>
  void putVector(const std::vector<T>& values) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<std::uint64_t>(values.size());
    const auto* p = reinterpret_cast<const char*>(values.data());
    bytes_.insert(bytes_.end(), p, p + values.size() * sizeof(T));
  }
  void putString(const std::string& text) {
    putVector(std::vector<char>(text.begin(), text.end()));
  }
  std::vector<char>& bytes() { return bytes_; }

 private:
  std::vector<char> bytes_;
};

class ByteReader {
 public:
  explicit ByteReader(const std::vector<char>& bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    need(sizeof(T));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }
  template <class T>
  std::vector<T> getVector() {
    const auto count = get<std::uint64_t>();
    need(count * sizeof(T));
    std::vector<T> values(count);
    std::memcpy(values.data(), bytes_.data() + at_, count * sizeof(T));
    at_ += count * sizeof(T);
    return values;
  }
  std::string getString() {
    const auto chars = getVector<char>();
    return std::string(chars.begin(), chars.end());
  }

 private:
  void need(std::size_t n) const {
    if (bytes_.size() - at_ < n) throw std::runtime_error("a truncated message from another rank");
  }
  const std::vector<char>& bytes_;
  std::size_t at_ = 0;
};

}  // namespace rfscope::cli

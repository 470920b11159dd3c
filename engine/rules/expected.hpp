// A value or an error (C++20 has no std::expected). Parsers return this instead of throwing:
// bad input is an ordinary outcome with a message for the user.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace tsuru {

template <class T, class E = std::string>
class Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT: implicit
  static Expected failure(E error) { return Expected(std::in_place_index<1>, std::move(error)); }

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }
  const T& value() const { return std::get<0>(v_); }
  T& value() { return std::get<0>(v_); }
  const T& operator*() const { return value(); }
  const T* operator->() const { return &value(); }
  const E& error() const { return std::get<1>(v_); }

 private:
  template <std::size_t I, class U>
  Expected(std::in_place_index_t<I> tag, U&& u) : v_(tag, std::forward<U>(u)) {}
  std::variant<T, E> v_;
};

}  // namespace tsuru

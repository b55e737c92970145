#pragma once
// JSON from files the user names (sessions, saved results), read defensively: the nesting is
// bounded while parsing, before any value is built, and messages never carry nlohmann-json's
// "[json.exception…]" tags.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace rfscope {

// Parses text whose nesting may not exceed maxNesting levels; throws std::runtime_error with
// "not valid JSON: …" or "JSON nested more than N levels deep; <hint>".
nlohmann::json parseBoundedJson(std::string_view text, int maxNesting, const std::string& hint);

// "parse error at line 1, column 2: …" from "[json.exception.parse_error.101] parse error …".
std::string jsonErrorWithoutTag(const nlohmann::json::exception& e);

// A JSON value as shown in messages: short, and printable whatever bytes its strings hold.
std::string shownJson(const nlohmann::json& value);

}  // namespace rfscope

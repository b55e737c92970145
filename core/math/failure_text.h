#pragma once
// Exception messages fit to show a user: Boost.Math's "Error in function
// boost::math::expm1<…mangled types…>(…): Overflow Error" keeps only "Overflow Error", and
// nlohmann-json's "[json.exception.type_error.302] type must be string" loses its tag.

#include <exception>
#include <string>

namespace rfscope {

std::string failureText(const std::exception& error);

}  // namespace rfscope

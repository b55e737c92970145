// libFuzzer harness: session files (ui/session.cpp without the rest of the GUI). A
// std::runtime_error with a message is the expected answer to bad input; a crash (e.g. the stack
// overflow of a deeply nested file), a leak, an exception of another type (nlohmann-json's own)
// or a hang is a bug.

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string_view>

#include "ui/session.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  try {
    const rfscope::ui::Session session = rfscope::ui::sessionFromText(text);
    // What was accepted saves and reads back the same.
    const rfscope::ui::Session again =
        rfscope::ui::sessionFromText(rfscope::ui::sessionToText(session));
    if (!(again.parameters == session.parameters) || again.experimentId != session.experimentId)
      std::abort();
  } catch (const std::runtime_error& e) {
    // nlohmann-json's tag never leads a message (the input itself may be quoted inside one).
    const std::string_view message = e.what();
    if (message.rfind("[json.exception", 0) == 0 ||
        message.rfind("not valid JSON: [json.exception", 0) == 0)
      std::abort();
  }
  return 0;
}

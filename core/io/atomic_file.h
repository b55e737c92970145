#pragma once
// Writes a file so that readers see either the old content or the complete new one, never a torn
// write: the data goes to a temporary file in the same directory (a short hidden name, so that any
// valid file name works), is flushed, then renamed over the target. On failure the target is
// untouched and std::runtime_error names the path and the reason (e.g. "No space left on device").
//
// What the target is decides how it is written:
// - a regular file or none: replaced atomically; an existing file keeps its permission bits (and,
//   where the process may set them, its owner and group); a new one gets 0666 less the umask;
// - a symbolic link: the file it points to is written as above, and the link stays;
// - a character device, FIFO or socket (/dev/null, a terminal, a pipe): written through in place,
//   never replaced; a FIFO that no process reads (within a second) is an error, not a hang;
// - a folder: an error.
// A termination signal during the write leaves no temporary behind once the executable has called
// removeTemporariesOnTerminationSignals() (core/io/temporary_files.h).

#include <string>
#include <string_view>

namespace rfscope {

void writeFileAtomically(const std::string& path, std::string_view content);

}  // namespace rfscope

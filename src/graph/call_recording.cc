#include "tfscope/detail/call_recording.h"

namespace tfs::detail {

CallRecording& call_recording() {
  static CallRecording hooks;
  return hooks;
}

}  // namespace tfs::detail

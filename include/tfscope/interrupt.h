// Letting a user stop a long computation. A host installs a check (the Python module: one that
// runs Python's signal handlers, so Ctrl-C raises KeyboardInterrupt); loops whose length the
// data decides (While) poll it. TF 2.21 itself does not stop a graph While on Ctrl-C (checked:
// still running 90 s after SIGINT); an eager tf.while_loop is a Python loop and stops in both.
#pragma once

namespace tfs {

// Throws (any exception) to stop the computation; called with no lock held by tfscope.
using InterruptCheck = void (*)();

// Installs the check (nullptr: none, the default). Not thread-safe against running loops:
// install it once, at start-up.
void set_interrupt_check(InterruptCheck check);

// Runs the check if one is installed and ~20 ms have passed since this thread last ran it; a
// clock read otherwise.
void poll_interrupt();

}  // namespace tfs

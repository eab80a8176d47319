// The repr() of a namedtuple's class, for TF's cast errors ("Cannot cast (1, 2) to type
// <class '__main__.P'>."). The engine knows a namedtuple by its type name and fields only; a
// front end that knows the classes (the Python binding) installs the lookup.
#pragma once

#include <string>
#include <vector>

namespace tfs::detail {

using NamedTupleClassRepr = std::string (*)(const std::string& type_name,
                                            const std::vector<std::string>& fields);

// Installs `fn` (may be null); it must be safe to call from any thread.
void set_namedtuple_class_repr(NamedTupleClassRepr fn);

// The installed lookup's answer, or "<class 'NAME'>" when there is none or it answers "".
std::string namedtuple_class_repr(const std::string& type_name,
                                  const std::vector<std::string>& fields);

}  // namespace tfs::detail

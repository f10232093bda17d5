# cmake -P script behind the ctest entry guide_example_in_sync: the program printed in
# docs/user-guide.md (its ```c block from "#include <exstar/exstar.h>") must be
# examples/guide_example.c from that line to its end, so the guide shows what ctest runs.
# Arguments: -DGUIDE=... -DEXAMPLE=...
file(READ ${GUIDE} guide)
file(READ ${EXAMPLE} example)
set(start "#include <exstar/exstar.h>")
string(FIND "${guide}" "```c\n${start}" g0)
string(FIND "${example}" "${start}" e0)
if(g0 LESS 0 OR e0 LESS 0)
  message(FATAL_ERROR "no '${start}' program in ${GUIDE} or ${EXAMPLE}")
endif()
math(EXPR g0 "${g0} + 5")
string(SUBSTRING "${guide}" ${g0} -1 guide)
string(FIND "${guide}" "\n```" g1)
string(SUBSTRING "${guide}" 0 ${g1} guide)
string(SUBSTRING "${example}" ${e0} -1 example)
string(STRIP "${guide}" guide)
string(STRIP "${example}" example)
if(NOT guide STREQUAL example)
  message(FATAL_ERROR "the program in ${GUIDE} differs from ${EXAMPLE}: copy the file into the guide")
endif()

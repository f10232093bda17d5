# cmake -P script behind the ctest entry api_reference (label docs):
#  1. every public header has a "@file" comment: Doxygen lists the functions of documented
#     files only, so a header without it would be missing from the reference without a warning;
#  2. Doxygen builds the reference with WARN_AS_ERROR = FAIL_ON_WARNINGS (an undocumented
#     public symbol or a malformed comment fails).
# Arguments: -DDOXYGEN=... -DDOXYFILE=... -DHEADERS_DIR=...
file(GLOB headers ${HEADERS_DIR}/*.h ${HEADERS_DIR}/*.hpp)
set(missing "")
foreach(h ${headers})
  file(READ ${h} text)
  if(NOT text MATCHES "[@\\\\]file")
    list(APPEND missing ${h})
  endif()
endforeach()
if(missing)
  string(REPLACE ";" "\n  " missing "${missing}")
  message(FATAL_ERROR "public headers without a Doxygen /** @file ... */ comment "
                      "(their declarations would be missing from the reference):\n  ${missing}")
endif()
execute_process(COMMAND ${DOXYGEN} ${DOXYFILE} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "doxygen reported warnings (above): the API reference is incomplete")
endif()

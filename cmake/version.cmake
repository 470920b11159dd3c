# Writes the version source file at every build: the project version and, when the sources are a
# git checkout, `git describe` of it (configure_file rewrites the file only when the text
# changes, so an unchanged version recompiles nothing).
#   cmake -DSOURCE_DIR=... -DVERSION=0.1.0 -DINPUT=version.cpp.in -DOUTPUT=version.cpp -P version.cmake
set(TSURU_GIT_DESCRIBE "")
find_package(Git QUIET)
if(GIT_FOUND)
  execute_process(COMMAND ${GIT_EXECUTABLE} -C ${SOURCE_DIR} describe --always --dirty --abbrev=7
                  OUTPUT_VARIABLE TSURU_GIT_DESCRIBE OUTPUT_STRIP_TRAILING_WHITESPACE
                  ERROR_QUIET RESULT_VARIABLE git_result)
  if(NOT git_result EQUAL 0)
    set(TSURU_GIT_DESCRIBE "")
  endif()
endif()
set(TSURU_VERSION ${VERSION})
configure_file(${INPUT} ${OUTPUT} @ONLY)

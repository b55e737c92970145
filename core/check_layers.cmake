# cmake -DMODULE=name -DALLOWED=a,b,c -DDIRECTORY=path -DSTAMP=file -P check_layers.cmake
# Fails (and so fails the build) when a file of core/MODULE includes "core/<other>/..." for a
# module <other> not in ALLOWED, or when a header includes oneTBB. Touches STAMP otherwise.
string(REPLACE "," ";" allowed "${ALLOWED}")
list(APPEND allowed ${MODULE})
file(GLOB files ${DIRECTORY}/*.h ${DIRECTORY}/*.cpp ${DIRECTORY}/*.cu)
set(problems "")
foreach(file IN LISTS files)
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  get_filename_component(name ${file} NAME)
  foreach(line IN LISTS includes)
    if(line MATCHES "#[ \t]*include[ \t]*\"core/([a-z_]+)/")
      list(FIND allowed ${CMAKE_MATCH_1} found)
      if(found EQUAL -1)
        string(APPEND problems "\n  core/${MODULE}/${name}: ${line} — core/${MODULE} may include "
                               "core/{${MODULE},${ALLOWED}} only (layers: core/CMakeLists.txt)")
      endif()
    endif()
    if(name MATCHES "\\.h$" AND line MATCHES "#[ \t]*include[ \t]*<tbb/")
      string(APPEND problems "\n  core/${MODULE}/${name}: ${line} — oneTBB stays in .cpp files "
                             "(core's headers reach the Qt GUI)")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "Layering violated:${problems}")
endif()
file(TOUCH ${STAMP})

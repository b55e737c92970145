# Include layering, checked before a library compiles (a violation fails the build):
#
#   cmake -DMODULE=name -DALLOWED=a,b,c -DDIRECTORY=path -DSTAMP=file -P check_layers.cmake
#     a module of core: its files include "core/<other>/..." only for a module <other> in ALLOWED,
#     never "ui/...", "app/..." or Qt, and its headers never include oneTBB.
#
#   cmake -DLAYER=name -DROOTS=a,b -DDIRECTORY=path [-DNO_QT=ON] [-DEXCEPT=f,g] -DSTAMP=file -P ...
#     a layer above core (ui, app/cli, app/python): its files include "<root>/..." of the
#     project's roots (core, ui, app) only for a root in ROOTS; with NO_QT, no Qt header either.
#     EXCEPT names files of the directory left out (those of another layer sharing it).
#
# Touches STAMP when every file passes.
cmake_minimum_required(VERSION 3.25)  # IN_LIST, in script mode too
set(roots core ui app)
# Qt's headers (<QString>, <QtConcurrent/...>) and QCustomPlot's.
set(qt_include "#[ \t]*include[ \t]*<(Q[A-Za-z]+>|Qt[A-Za-z]+/|qcustomplot\\.h>)")
file(GLOB files ${DIRECTORY}/*.h ${DIRECTORY}/*.cpp ${DIRECTORY}/*.cu)
string(REPLACE "," ";" except "${EXCEPT}")
set(problems "")
if(DEFINED MODULE)
  set(where "core/${MODULE}")
  string(REPLACE "," ";" allowed "${ALLOWED}")
  list(APPEND allowed ${MODULE})
  set(allowed_roots core)
  set(no_qt ON)
else()
  set(where "${LAYER}")
  string(REPLACE "," ";" allowed_roots "${ROOTS}")
  set(no_qt ${NO_QT})
endif()
foreach(file IN LISTS files)
  get_filename_component(name ${file} NAME)
  if(name IN_LIST except)
    continue()
  endif()
  file(STRINGS ${file} includes REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]")
  foreach(line IN LISTS includes)
    if(line MATCHES "#[ \t]*include[ \t]*\"([a-z]+)/")
      set(root ${CMAKE_MATCH_1})
      if(root IN_LIST roots AND NOT root IN_LIST allowed_roots)
        list(JOIN allowed_roots "/, " shown)
        string(APPEND problems "\n  ${where}/${name}: ${line} — ${where} may include ${shown}/ "
                               "only (layers: README, Architecture)")
      endif()
    endif()
    if(DEFINED MODULE AND line MATCHES "#[ \t]*include[ \t]*\"core/([a-z_]+)/")
      list(FIND allowed ${CMAKE_MATCH_1} found)
      if(found EQUAL -1)
        string(APPEND problems "\n  core/${MODULE}/${name}: ${line} — core/${MODULE} may include "
                               "core/{${MODULE},${ALLOWED}} only (layers: core/CMakeLists.txt)")
      endif()
    endif()
    if(no_qt AND line MATCHES "${qt_include}")
      string(APPEND problems "\n  ${where}/${name}: ${line} — ${where} is Qt-free (it runs "
                             "headless: the CLI's parsing and reports, the Python module, core)")
    endif()
    if(DEFINED MODULE AND name MATCHES "\\.h$" AND line MATCHES "#[ \t]*include[ \t]*<tbb/")
      string(APPEND problems "\n  core/${MODULE}/${name}: ${line} — oneTBB stays in .cpp files "
                             "(core's headers reach the Qt GUI)")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "Layering violated:${problems}")
endif()
file(TOUCH ${STAMP})

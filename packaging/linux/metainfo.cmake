# Writes RFScope's AppStream metainfo from its template (cmake -P):
#   cmake -DTEMPLATE=<.metainfo.xml.in> -DOUTPUT=<.metainfo.xml> [-DSCREENSHOT_BASE_URL=<url>]
#         -P metainfo.cmake
# With SCREENSHOT_BASE_URL (the web address under which the repository's files are served, e.g. a
# forge's "raw" address), the pictures below are listed as <base>/resources/screenshots/<file>;
# without it the metainfo has none, since AppStream wants web addresses for them.

# "file name|caption"; the first one is the default screenshot.
set(screenshots
  "crt-fig2-normal.png|Log-variance of TrigRF, PosRF and OPRF versus σ (CRT Fig. 2)"
  "simrf-fig6.png|MSE ratios of orthogonal and simplex couplings to IID, with Monte Carlo \
error bars (SimRF Fig. 6)"
  "teach-convergence.png|Teaching demo: a running Monte Carlo estimate of a variance \
converging to the exact value")

set(SCREENSHOTS "")
if(SCREENSHOT_BASE_URL)
  string(REGEX REPLACE "/+$" "" base "${SCREENSHOT_BASE_URL}")
  string(APPEND SCREENSHOTS "\n  <screenshots>")
  set(type " type=\"default\"")
  foreach(entry IN LISTS screenshots)
    string(REPLACE "|" ";" fields "${entry}")
    list(GET fields 0 file)
    list(GET fields 1 caption)
    string(APPEND SCREENSHOTS "\n    <screenshot${type}>"
           "\n      <caption>${caption}</caption>"
           "\n      <image>${base}/resources/screenshots/${file}</image>"
           "\n    </screenshot>")
    set(type "")
  endforeach()
  string(APPEND SCREENSHOTS "\n  </screenshots>")
endif()
configure_file("${TEMPLATE}" "${OUTPUT}" @ONLY)

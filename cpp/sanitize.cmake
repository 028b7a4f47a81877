# How the checked builds compile the engine: the package's with MANILA_SANITIZE
# (CMakeLists.txt) and the fuzz targets' (cpp/fuzz/CMakeLists.txt). AddressSanitizer and
# UBSan, stopping at the first report. -O1: instrumented code compiles several times slower
# at -O3 and is fast enough to test and fuzz at -O1; -g1: the line tables a report's stack
# trace reads, at a quarter less compile time than -g.
set(manila_sanitize_flags -O1 -g1 -fno-omit-frame-pointer -fsanitize=address,undefined
                          -fno-sanitize-recover=all)

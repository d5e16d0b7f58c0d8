# Install rules and the exported CMake package (filled in below).

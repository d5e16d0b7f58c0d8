#!/usr/bin/env bash
# Installs the build into a temporary prefix and builds a C client of
# libptxjit against it three ways: the CMake package (ptx2amd::ptxjit and
# ptx2amd::ptxjit_static) and pkg-config (ptxjit.pc); each client translates
# a PTX file to a gfx1100 code object. The installed ptx2amd must work too.
# usage: install_test.sh BUILD_DIR SRC_DIR WORK_DIR PTX_FILE
set -eu
BUILD=$(realpath "$1") SRC=$(realpath "$2") WORK=$3 PTX=$(realpath "$4")
rm -rf "$WORK" && mkdir -p "$WORK" && WORK=$(realpath "$WORK")
P=$WORK/prefix
cmake --install "$BUILD" --prefix "$P" >"$WORK/install.log"
for f in bin/ptx2amd bin/ptx2amd-fatbin bin/ptx2amd-run include/ptxjit.h lib/libptxjit.so lib/libptxjit.a \
         lib/ptx2amd/libcudart.so.13 lib/ptx2amd/libcuda.so.1 lib/cmake/ptx2amd/ptx2amdConfig.cmake lib/pkgconfig/ptxjit.pc \
         share/ptx2amd/devlib/ptx_devlib.h share/ptx2amd/devlib/ptx_devlib_w32.bc; do
  test -e "$P/$f" || { echo "missing in the install tree: $f"; exit 1; }
done
echo "install: tree complete"
# libcudart.so.13 finds the runtime core in the installed libcuda.so.1 next to it.
ldd "$P/lib/ptx2amd/libcudart.so.13" | grep -q "libcuda.so.1 => $P/lib/ptx2amd/libcuda.so.1" ||
  { echo "installed libcudart.so.13 does not resolve libcuda.so.1 next to it"; ldd "$P/lib/ptx2amd/libcudart.so.13"; exit 1; }

# A PTX2AMD_SANITIZE build (cmake/Sanitize.cmake sets PTX2AMD_TEST_PRELOAD): the installed
# libraries are instrumented, so the clients are built with the same sanitizers (libptxjit.a's
# objects call ASan's runtime; ASan must be the first library of a client of libptxjit.so).
SAN=""
if [ -n "${PTX2AMD_TEST_PRELOAD:-}" ]; then SAN="-fsanitize=address,undefined"; fi

# 1. CMake package.
mkdir -p "$WORK/client"
cp "$SRC/client.c" "$WORK/client/"
cp "$SRC/CMakeLists.client.txt" "$WORK/client/CMakeLists.txt"
cmake -S "$WORK/client" -B "$WORK/client/build" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_FLAGS="$SAN" -DCMAKE_EXE_LINKER_FLAGS="$SAN" >"$WORK/client.cfg.log"
cmake --build "$WORK/client/build" >"$WORK/client.build.log"
"$WORK/client/build/client_shared" "$PTX"
"$WORK/client/build/client_static" "$PTX"
if ldd "$WORK/client/build/client_static" | grep -q libptxjit; then echo "client_static links libptxjit.so"; exit 1; fi

# 2. pkg-config.
export PKG_CONFIG_PATH=$P/lib/pkgconfig
test "$(pkg-config --modversion ptxjit)" = "$(sed -n 's/^Version: //p' "$P/lib/pkgconfig/ptxjit.pc")"
cc $SAN -o "$WORK/client_pc" "$SRC/client.c" $(pkg-config --cflags --libs ptxjit) -Wl,-rpath,"$P/lib"
"$WORK/client_pc" "$PTX"

# 3. The installed tool.
"$P/bin/ptx2amd" "$PTX" --offload-arch=gfx90a -o "$WORK/tool.hsaco"
test -s "$WORK/tool.hsaco"
echo "install: OK"

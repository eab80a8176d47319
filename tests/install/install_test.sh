#!/usr/bin/env bash
# install_test.sh BUILD_DIR APP_DIR: installs BUILD_DIR into a temporary prefix, builds APP_DIR
# against it with find_package(tfscope) and checks what the program and the installed command do.
set -euo pipefail
BUILD="$1"; APP="$2"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
cmake --install "$BUILD" --prefix "$tmp/prefix" > /dev/null
for f in lib/cmake/tfscope/tfscopeConfig.cmake lib/libtfscope_core.a include/tfscope/function.h \
         include/tfscope/proto/saved_model.pb.h include/tfscope/lite/tflite_schema_generated.h; do
  [ -e "$tmp/prefix/$f" ] || { echo "not installed: $f"; exit 1; }
done
"$tmp/prefix/bin/tfscope" --version | grep -q '^tfscope ' || { echo "installed tfscope --version fails"; exit 1; }
cp -r "$APP" "$tmp/app"
cmake -S "$tmp/app" -B "$tmp/app/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_PREFIX_PATH="$tmp/prefix" > "$tmp/configure.log" || { cat "$tmp/configure.log"; exit 1; }
cmake --build "$tmp/app/build" > "$tmp/build.log" || { cat "$tmp/build.log"; exit 1; }
out="$("$tmp/app/build/app" "$tmp/model")"
[ "$out" = "2 4 6 " ] || { echo "app printed '$out', expected '2 4 6 '"; exit 1; }
echo "ok: find_package(tfscope) built and ran an outside program"

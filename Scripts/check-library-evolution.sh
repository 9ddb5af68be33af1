#!/usr/bin/env bash
# Checks that Multicast can ship inside a binary framework, as Xcode's "Build Libraries for Distribution" builds
# one: with library evolution and module interfaces. Source builds never turn library evolution on (a source
# package should not); this is what a vendor's build of the package does.
#
# 1. Builds `_MulticastCore` and `Multicast` with `-enable-library-evolution -emit-module-interface`, in debug
#    and release, in a build folder of their own. SwiftPM's own check of each emitted interface cannot find the
#    C module `_MulticastShims` (it does not pass its module map on), so it is turned off, and step 2 does it.
# 2. Type-checks every interface each build emitted (public, private, package) from the interface alone: each
#    kind in a folder that holds only interfaces of that kind and those it imports, and the shims' header with a
#    module map of its own, as a binary framework ships them. An interface that its own compiler cannot read
#    back (a setter or deinit that it leaves out but inlinable code uses) fails here.
# 3. Builds a small SDK, `Tests/LibraryEvolution/SDK`, that has a multicast of observers in its public API, as a
#    shared library with library evolution, against the public interfaces and a shared library of the release
#    build; no source or `.swiftmodule` of Multicast is in its search path. Then an app,
#    `Tests/LibraryEvolution/Client`, that imports the SDK and Multicast the same way, unoptimized and
#    optimized: it links against both shared libraries, runs, and must print what its observers were told.
#    The app switches over `Retention` without a `default`, which compiles only while `Retention` is frozen.
#
# Usage: Scripts/check-library-evolution.sh
set -euo pipefail
cd "$(dirname "$0")/.."
started=$SECONDS
lap=$SECONDS
timing() {
    printf '%-66s %3d s\n' "$1" $((SECONDS - lap))
    lap=$SECONDS
}

build=.build/library-evolution
work="$build/check"
rm -rf "$work"
mkdir -p "$work"

# The shims as a binary framework ships them: the header, and a module map beside it.
shims="$work/shims"
mkdir -p "$shims"
cp Sources/_MulticastShims/include/_MulticastShims.h "$shims/"
cat >"$shims/module.modulemap" <<'EOF'
module _MulticastShims {
    header "_MulticastShims.h"
    export *
}
EOF

# Built as a vendor builds the package: without the registry's internal checks, which only CI's tests turn on.
flags=(-Xswiftc -enable-library-evolution -Xswiftc -emit-module-interface -Xswiftc -no-verify-emitted-module-interface)
for config in debug release; do
    log="$work/build-$config.log"
    if ! env -u MULTICAST_INTERNAL_CHECKS swift build -c "$config" --build-path "$build" --target Multicast \
        "${flags[@]}" >"$log" 2>&1; then
        cat "$log" >&2
        echo "error: the $config build with library evolution failed" >&2
        exit 1
    fi
    timing "build with library evolution, $config"
done

modules=(_MulticastCore Multicast)
checked=0
for config in debug release; do
    bin=$(swift build -c "$config" --build-path "$build" --show-bin-path)
    # Each kind in its own folder, with the kinds before it: the compiler finds a private or package interface
    # only beside the public one, and prefers it (a package one with the same package name), so a folder that
    # held them all would check imports against the package interfaces alone.
    kinds=()
    for kind in "" .private .package; do
        kinds+=("$kind")
        name=${kind#.}
        folder="$work/interfaces/$config/${name:-public}"
        mkdir -p "$folder"
        for module in "${modules[@]}"; do
            for each in "${kinds[@]}"; do
                interface="$bin/$module.build/$module$each.swiftinterface"
                [[ -f "$interface" ]] || { echo "error: the $config build emitted no $interface" >&2; exit 1; }
                cp "$interface" "$folder/"
            done
        done
        for module in "${modules[@]}"; do
            if ! swiftc -frontend -typecheck-module-from-interface "$folder/$module$kind.swiftinterface" \
                -module-name "$module" -I "$folder" -I "$shims" -module-cache-path "$work/module-cache/$config"
            then
                echo "error: $module$kind.swiftinterface ($config) does not compile from the interface alone" >&2
                exit 1
            fi
            checked=$((checked + 1))
        done
    done
    timing "type-check every interface from itself, $config"
done
[[ $checked -eq 12 ]] || { echo "error: $checked interfaces checked, not 12" >&2; exit 1; }

# The binary frameworks: shared libraries and public interfaces, and nothing else.
bin=$(swift build -c release --build-path "$build" --show-bin-path)
frameworks="$work/frameworks"
mkdir -p "$frameworks"
cp "$work/interfaces/release/public/"*.swiftinterface "$frameworks/"
swiftc -emit-library -o "$frameworks/libMulticast.so" \
    "$bin/_MulticastShims.build/"*.o "$bin/_MulticastCore.build/"*.o "$bin/Multicast.build/"*.o
search=(-I "$frameworks" -I "$shims" -L "$frameworks" -module-cache-path "$work/module-cache/sdk")
swiftc -emit-library -enable-library-evolution -parse-as-library -swift-version 6 -warnings-as-errors -O \
    -module-name SDK -emit-module-interface-path "$frameworks/SDK.swiftinterface" "${search[@]}" -lMulticast \
    Tests/LibraryEvolution/SDK/SDK.swift -o "$frameworks/libSDK.so"
rm -f "$frameworks/SDK.private.swiftinterface"  # the app sees what the SDK makes public
swiftc -frontend -typecheck-module-from-interface "$frameworks/SDK.swiftinterface" -module-name SDK \
    -I "$frameworks" -I "$shims" -module-cache-path "$work/module-cache/sdk"
timing "SDK: shared library and interface, from interfaces only"

expected="$work/expected.txt"
cat >"$expected" <<'EOF'
screen was told that report.pdf finished
logger was told that report.pdf finished
screen was told that photo.jpg finished
logger was told that photo.jpg finished
observers: screen, logger (2)
retention: weak
retention: strong
logger was told that notes.txt finished
EOF
for optimization in -Onone -O; do
    app="$work/app$optimization"
    swiftc -swift-version 6 -warnings-as-errors "$optimization" "${search[@]}" -lSDK -lMulticast \
        -Xlinker -rpath -Xlinker "$PWD/$frameworks" -Rmodule-loading \
        Tests/LibraryEvolution/Client/main.swift -o "$app" 2>"$app.loading" ||
        { cat "$app.loading" >&2; echo "error: the app ($optimization) does not build" >&2; exit 1; }
    # Each of the three modules was rebuilt from its interface in the frameworks' folder.
    for module in SDK Multicast _MulticastCore; do
        grep -q "loaded module '$module'; source: '[^']*/frameworks/$module.swiftinterface'" "$app.loading" ||
            { echo "error: the app ($optimization) did not load $module from its public interface" >&2; exit 1; }
    done
    "$app" >"$app.out"
    if ! diff -u "$expected" "$app.out"; then
        echo "error: the app built $optimization against the binary frameworks printed the above" >&2
        exit 1
    fi
    timing "app ($optimization): builds, links and runs; its observers were called"
done
echo "library evolution: both modules in debug and release, $checked interfaces, the SDK and its app" \
    "($((SECONDS - started)) s)"

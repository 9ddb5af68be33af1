# Sourced, not run: a standard library for a triple this toolchain has none for, rebuilt from the toolchain's
# own Linux interfaces, so that a compiler on Linux can type-check code for that triple. Used by
# Scripts/check-apple-platforms.sh and Scripts/check-other-platforms.sh.
#
# The toolchain ships its standard library for Linux as textual interfaces (Swift, SwiftOnoneSupport,
# _Concurrency). Compiled for another triple, they give a standard library that declares what Linux's does,
# with the annotations it keeps (Apple's `@available`), and with that triple's conditions (`os(...)`,
# `_runtime(...)`, `_pointerBitWidth(...)`) in the code compiled against it. What it does not change: `Int` is
# 64-bit on every triple, as the Linux interface spells it.
#
# After sourcing: `build_stdlibs TRIPLE...` builds what the cache lacks, $STDLIB_JOBS at a time (default 2);
# then `$stdlib_cache/TRIPLE` is the folder to give the compiler with `-I` (or `$stdlib_cache/TRIPLE/done` is
# missing, and `$stdlib_cache/TRIPLE.log` says why). The caller sets `root`, the package's folder.

stdlib_resources="$(dirname "$(dirname "$(readlink -f "$(command -v swift)")")")/lib/swift"
linux_interfaces="$stdlib_resources/linux"
[[ -f "$linux_interfaces/Swift.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface" ]] ||
    { echo "error: no standard library interface in $linux_interfaces" >&2; exit 1; }

# sdk_flags TRIPLE: visionOS takes the availability of every declaration that names only iOS, at the visionOS
# release that Apple's SDK maps the iOS release to (in its SDKSettings.json: iOS 17 is visionOS 1, iOS 18 is
# visionOS 2, and anything older than iOS 17 is in visionOS 1). Tests/PlatformChecks/XROS.sdk holds that
# mapping and nothing else; without it, the compiler compares iOS versions to visionOS 1 and rejects iOS 14.
sdk_flags() {
    [[ "$1" == *-apple-xros* ]] && printf '%s\n' -sdk "$root/Tests/PlatformChecks/XROS.sdk"
    return 0
}

# patch_interface MODULE TRIPLE: prints MODULE's Linux interface, made buildable for TRIPLE. What is changed:
#   - the target in the module flags; -Onone for -O, since only the declarations are needed (Swift builds in
#     26 s of processor time instead of 41);
#   - `@backDeployed` attributes are dropped: the Linux interface prints their functions without the bodies
#     that a back-deployed function must have;
#   - Float80's remainder and square root call C functions that exist only for x86: they trap instead
#     (`Float80` is never used here);
#   - in _Concurrency, the `Failure` associated type witnesses that Apple marks macOS 15 and later
#     (`@_implements(... Failure)`) become plain aliases, which no conformance uses.
patch_interface() {
    sed -e "1,6s/-target x86_64-unknown-linux-gnu/-target $2/" -e '1,6s/ -O / -Onone /' \
        -e '/^[[:space:]]*@backDeployed(/d' \
        -e 's/self = _stdlib_remainderl(self, other)/fatalError()/' \
        -e 's/self = _stdlib_squareRootl(self)/fatalError()/' \
        -e 's/@_implements(_Concurrency\.Async[A-Za-z]*, Failure) public typealias \([A-Za-z_]*\) = .*/'\
'public typealias _unused\1 = Swift.Never/' \
        "$linux_interfaces/$1.swiftmodule/x86_64-unknown-linux-gnu.swiftinterface"
}

# build_stdlib TRIPLE: Swift, SwiftOnoneSupport and _Concurrency for TRIPLE, in $stdlib_cache/TRIPLE.
build_stdlib() {
    local triple="$1" out="$stdlib_cache/$1" module
    [[ -f "$out/done" ]] && return 0
    rm -rf "$out"
    mkdir -p "$out"
    for module in Swift SwiftOnoneSupport _Concurrency; do
        patch_interface "$module" "$triple" >"$out/$module.swiftinterface"
        local stdlib_flag=()
        [[ "$module" == Swift ]] && stdlib_flag=(-parse-stdlib)
        swift-frontend -compile-module-from-interface -module-name "$module" "${stdlib_flag[@]}" \
            -I "$out" -Xcc -ffreestanding -resource-dir "$stdlib_resources" $(sdk_flags "$triple") \
            -o "$out/$module.swiftmodule" "$out/$module.swiftinterface" ||
            { echo "error: could not build $module for $triple" >&2; return 1; }
    done
    touch "$out/done"
}

# The cache: one folder per compiler version and version of the functions that build the library; older
# folders go.
stdlib_cache_key="$( (swift-frontend --version 2>&1; declare -f patch_interface build_stdlib sdk_flags) |
    sha256sum | cut -c1-16)"
stdlib_cache=".build/stdlib-for-triples/$stdlib_cache_key"
mkdir -p "$stdlib_cache"
find .build/stdlib-for-triples -mindepth 1 -maxdepth 1 ! -name "$stdlib_cache_key" -exec rm -rf {} +

# build_stdlibs TRIPLE...: builds the standard library of each TRIPLE that the cache lacks, and says which.
build_stdlibs() {
    local started=$SECONDS triple missing=()
    for triple in "$@"; do
        [[ -f "$stdlib_cache/$triple/done" ]] && continue
        missing+=("$triple")
        build_stdlib "$triple" >"$stdlib_cache/$triple.log" 2>&1 &
        while [[ $(jobs -rp | wc -l) -ge ${STDLIB_JOBS:-2} ]]; do wait -n || true; done
    done
    wait || true
    if [[ ${#missing[@]} -gt 0 ]]; then
        printf 'standard library built for %s in %d s\n' "${missing[*]}" $((SECONDS - started))
    else
        printf 'standard library cached for every triple (%s)\n' "$stdlib_cache"
    fi
}

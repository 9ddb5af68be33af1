// The control of Scripts/check-apple-platforms.sh: this file must NOT compile for any Apple triple the script
// checks. `Int128` is in the standard library from macOS 15, iOS 18, tvOS 18, watchOS 11 and visionOS 2, later
// than every deployment target in Package.swift, so the compiler must reject it; if it compiles, the check is
// not applying availability, and a green run would mean nothing.
func widened(_ value: Int64) -> Int128 {
    Int128(value)
}

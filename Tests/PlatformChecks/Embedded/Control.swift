// The control of Scripts/check-32-bit.sh, compiled with the library: the script passes only if the compiler
// rejects this literal, which fits a 64-bit `UInt` and overflows a 32-bit one. So a green run means the target
// was 32-bit and the compile reached the stage at which such a literal is reported.
public func wordSizeControl() -> UInt {
    0x1_0000_0000  // 2^32
}

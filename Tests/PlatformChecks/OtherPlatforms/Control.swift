// The control of Scripts/check-other-platforms.sh: on each triple the script checks, this file must fail with
// exactly one error, the one of the branch that Sources/_MulticastCore/Lock.swift takes there, under the same
// conditions and in the same order. Each branch first imports the stand-in module that the lock uses there, so a
// missing stand-in would add an error. If it compiles, or fails otherwise, the check did not compile what that
// platform's build compiles, and a green run would mean nothing.
#if canImport(WinSDK)
import WinSDK
#error("control: WinSDK")
#elseif canImport(Darwin)
#error("control: Darwin")
#elseif !_runtime(_multithreaded)
#error("control: one thread, no lock")
#elseif canImport(Glibc)
#error("control: Glibc")
#elseif canImport(Musl)
#error("control: Musl")
#elseif canImport(Android)
import Android
#error("control: Android")
#elseif canImport(wasi_pthread)
import wasi_pthread
#error("control: wasi_pthread")
#else
#error("control: no branch")
#endif

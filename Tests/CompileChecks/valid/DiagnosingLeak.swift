// snippet.with: DiagnosingTrace.swift
// snippet.hide
import Multicast

// snippet.show
func printDelegatesKeptByTheMulticast() {
    for registered in messages.registeredDelegates()
    where registered.retention == .strong && registered.ownerType == nil {
        let site = registered.site.map { "added at \($0)" } ?? "added while diagnostics were off"
        print(registered.delegate, site)  // kept until it is removed
    }
}

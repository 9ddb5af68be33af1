// snippet.with: DiagnosingTrace.swift
// snippet.hide
import Multicast

// snippet.show
func printStrongDelegates() {
    for registered in messages.registeredDelegates() where registered.retention == .strong {
        let site = registered.site.map { "added at \($0)" } ?? "added while diagnostics were off"
        print(registered.delegate, site)
    }
}

// snippet.hide
import Multicast

// snippet.show
func recordWhereEveryDelegateIsAdded() {
    #if DEBUG
    MulticastDiagnostics.processWide = .recordingSites  // sites recorded, no call traced
    #endif
}

// snippet.hide
import Multicast

// snippet.show
func recordWhereEveryDelegateIsAdded() {
    #if DEBUG
    MulticastDiagnostics.processWide = MulticastDiagnostics()  // sites recorded, nothing reported
    #endif
}

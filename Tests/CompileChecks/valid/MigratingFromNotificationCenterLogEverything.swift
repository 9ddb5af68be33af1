// snippet.hide
import Multicast

protocol TabBarDelegate: AnyObject {
    func tabBarDidSelect(tag: Int)
}

// snippet.show
@MainActor
let tabBar = MulticastDelegate<any TabBarDelegate>(label: "tabBar")  // the name the trace gives it

@MainActor
func applicationDidFinishLaunching() {
    #if DEBUG
    MulticastDiagnostics.processWide = .printing  // a line per call, of every multicast
    #endif
}

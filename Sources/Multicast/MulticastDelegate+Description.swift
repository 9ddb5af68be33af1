// What `print(events)`, `dump(events)` and `po events` show: the live delegates in call order, each with how
// it is held.

import _MulticastCore

extension MulticastDelegate: CustomStringConvertible {
    /// The live delegates, in the order they are called, each with its retention.
    ///
    /// ```swift
    /// print(tabBar)  // MulticastDelegate<TabBarDelegate>[Screen (weak), Logger (strong)]
    /// ```
    ///
    /// Each delegate is described with `String(describing:)`, after the multicast has let go of its lock.
    /// The description keeps no delegate alive once it returns.
    public var description: String {
        _describe(String(describing: Self.self)) { String(describing: $0) }
    }
}

extension MulticastDelegate: CustomDebugStringConvertible {
    /// The live delegates, in the order they are called, each with its retention, as `po` in a debugger
    /// shows them.
    ///
    /// ```swift
    /// debugPrint(tabBar)
    /// // Multicast.MulticastDelegate<MyApp.TabBarDelegate>[MyApp.Screen (weak), MyApp.Logger (strong)]
    /// ```
    ///
    /// Each delegate is described with `String(reflecting:)`, after the multicast has let go of its lock.
    /// The description keeps no delegate alive once it returns.
    public var debugDescription: String {
        _describe(String(reflecting: Self.self)) { String(reflecting: $0) }
    }
}

extension MulticastDelegate: CustomReflectable {
    /// A collection of the live delegates, in the order they are called, each labelled with its retention,
    /// for `dump(_:)` and debuggers.
    ///
    /// ```swift
    /// dump(tabBar)
    /// // ▿ 2 elements
    /// //   ▿ weak: Screen #0
    /// //     - title: "Chats"
    /// //   ▿ strong: Logger #1
    /// ```
    ///
    /// The mirror holds a weakly held delegate weakly: if the delegate is deallocated while the mirror is
    /// kept, its child shows `nil`.
    public var customMirror: Mirror {
        let children = _liveDelegates().map { delegate, retention -> Mirror.Child in
            switch retention {
            case .strong: (label: "strong", value: delegate)
            case .weak: (label: "weak", value: _WeakMirrorChild(delegate: delegate))
            }
        }
        return Mirror(self, children: children, displayStyle: .collection)
    }
}

extension MulticastDelegate {
    /// `typeName`, then the live delegates as `describe` shows them, each with its retention.
    func _describe(_ typeName: String, _ describe: (Delegate) -> String) -> String {
        let delegates = _liveDelegates().map { delegate, retention in
            "\(describe(delegate)) (\(retention == .strong ? "strong" : "weak"))"
        }
        return "\(typeName)[\(delegates.joined(separator: ", "))]"
    }

    /// The live delegates, in call order, each with its retention: strong references, for the caller to let
    /// go of. One pass, which holds the lock only to start; no delegate code runs during it.
    func _liveDelegates() -> [(delegate: Delegate, retention: Retention)] {
        var delegates: [(delegate: Delegate, retention: Retention)] = []
        var pass = unsafe _Pass(_core)
        var keeper: AnyObject?
        while let slot = unsafe pass.next(keeping: &keeper) {
            unsafe delegates.append((slot.copyOfDelegate(as: Delegate.self), slot.isStrong ? .strong : .weak))
        }
        return delegates
    }
}

/// A weakly held delegate as a mirror's child: it shows the delegate while it lives, and `nil` after.
struct _WeakMirrorChild: CustomReflectable, CustomDebugStringConvertible {
    weak var object: AnyObject?

    init<Delegate>(delegate: Delegate) {
        object = unsafe _Slot.object(of: delegate, knownToBeOne: false)?.takeUnretainedValue()
    }

    var debugDescription: String {
        object.map { String(reflecting: $0) } ?? "nil"
    }

    var customMirror: Mirror {
        object.map { Mirror(reflecting: $0) } ?? Mirror(self, children: [:])
    }
}

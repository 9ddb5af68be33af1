import _MulticastCore

extension MulticastDelegate: CustomStringConvertible {
    /// The live delegates, in the order they are called, each with how it is held (`weak`, `strong`, or, for a
    /// delegate added with ``add(_:ownedBy:file:line:)``, `owned by` its owner's class); the multicast's label, if
    /// it has one, after its type.
    ///
    /// ```swift
    /// print(tabBar)  // MulticastDelegate<TabBarDelegate>[Screen (weak), Logger (strong), Badge (owned by Inbox)]
    /// print(MulticastDelegate<any TabBarDelegate>(label: "tabs"))  // MulticastDelegate<TabBarDelegate>(label: "tabs")[]
    /// ```
    ///
    /// Each delegate is described with `String(describing:)`, after the multicast has let go of its lock.
    /// The description keeps no delegate alive once it returns.
    public var description: String {
        _describe(String(describing: Self.self), sites: false) { String(describing: $0) }
    }
}

extension MulticastDelegate: CustomDebugStringConvertible {
    /// The live delegates, in the order they are called, each with how it is held (`weak`, `strong`, or `owned by`
    /// its owner's class) and, if diagnostics recorded it, where it was added, as `po` in a debugger shows them.
    ///
    /// ```swift
    /// debugPrint(tabBar)
    /// // Multicast.MulticastDelegate<MyApp.TabBarDelegate>[MyApp.Screen (weak, Screen.swift:12), MyApp.Logger (strong)]
    /// ```
    ///
    /// Each delegate is described with `String(reflecting:)`, after the multicast has let go of its lock.
    /// The description keeps no delegate alive once it returns.
    public var debugDescription: String {
        _describe(String(reflecting: Self.self), sites: true) { String(reflecting: $0) }
    }
}

extension MulticastDelegate: CustomReflectable {
    /// A collection of the live delegates, in the order they are called, each labelled with how it is held
    /// (`weak`, `strong`, or `owned by` its owner's class) and, if diagnostics recorded it, where it was added, for
    /// `dump(_:)` and debuggers.
    ///
    /// ```swift
    /// dump(tabBar)
    /// // ▿ 2 elements
    /// //   ▿ weak (Screen.swift:12): Screen #0
    /// //     - title: "Chats"
    /// //   ▿ strong: Logger #1
    /// ```
    ///
    /// The mirror holds a weakly held delegate weakly: if the delegate is deallocated while the mirror is
    /// kept, its child shows `nil`.
    public var customMirror: Mirror {
        let kind = _core.delegateKind
        let children = registeredDelegates().map { registered -> Mirror.Child in
            let site = registered.site.map { " (\($0))" } ?? ""
            let holding = _describeHolding(registered.retention, ownerType: registered.ownerType, site: nil)
            return switch registered.retention {
            case .strong: (label: holding + site, value: registered.delegate)
            case .weak: (label: holding + site, value: _WeakMirrorChild(delegate: registered.delegate, kind: kind))
            }
        }
        return Mirror(self, children: children, displayStyle: .collection)
    }
}

extension MulticastDelegate {
    /// `typeName` and the label, then the live delegates as `describe` shows them, each with how it is held and,
    /// with `sites`, where it was added.
    func _describe(_ typeName: String, sites: Bool, _ describe: (Delegate) -> String) -> String {
        let delegates = registeredDelegates().map { registered in
            let holding = _describeHolding(
                registered.retention, ownerType: registered.ownerType, site: sites ? registered.site : nil)
            return "\(describe(registered.delegate)) (\(holding))"
        }
        let label = label.map { "(label: \(String(reflecting: $0)))" } ?? ""
        return "\(typeName)\(label)[\(delegates.joined(separator: ", "))]"
    }
}

/// A weakly held delegate as a mirror's child: it shows the delegate while it lives, and `nil` after.
struct _WeakMirrorChild: CustomReflectable, CustomDebugStringConvertible {
    weak var object: AnyObject?

    init<Delegate>(delegate: Delegate, kind: _DelegateKind) {
        object = unsafe kind.object(of: delegate)?.takeUnretainedValue()
    }

    var debugDescription: String {
        object.map { String(reflecting: $0) } ?? "nil"
    }

    var customMirror: Mirror {
        object.map { Mirror(reflecting: $0) } ?? Mirror(self, children: [:])
    }
}

// What a mistake that can never work stops with: a message that says what happened and what to do. Each one
// is checked by its message in RefusalTests, in a child process that stops before it writes its coverage, so
// CI's coverage figure leaves this file out.

extension MulticastDelegate {
    @usableFromInline
    @inline(never)
    static func _refuseNonClass(_ type: Any.Type) -> Never {
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>: a delegate of type \(type) is not a class instance. Delegates \
            must be classes (held weakly, compared by identity); make \(type) a class, or make the delegate \
            protocol class-bound (`: AnyObject`).
            """
        )
    }

    /// Stops the program, with a message that says what to declare instead, unless `Delegate` is a type whose
    /// values can be class instances: a class, or a protocol or composition (other than `any Error`). A closure,
    /// an optional, a struct, an enum, a tuple or a metatype can never be a delegate.
    static func _refuseUnfitDelegateType() {
        if Delegate.self == (any Error).self { _refuseErrorExistential() }
        switch MetadataKind(rawValue: _metadataKind(Delegate.self)) {
        case .class, .foreignClass, .foreignReferenceType, .objCClassWrapper, .existential, .extendedExistential:
            return
        case .function:
            fatalError(
                """
                MulticastDelegate<\(Delegate.self)>: a closure is not a delegate. A multicast calls objects, which \
                it holds weakly and tells apart by identity. Declare a protocol for the event, for example \
                `protocol Listener: AnyObject { func hear() }`, and use `MulticastDelegate<any Listener>`.
                """
            )
        case .optional:
            fatalError(
                """
                MulticastDelegate<\(Delegate.self)>: a multicast of optionals. Delegates are held weakly already, \
                and a multicast holds no nil: declare it of the type that the optional wraps.
                """
            )
        case nil:
            fatalError(
                """
                MulticastDelegate<\(Delegate.self)>: \(Delegate.self) is not a class or a protocol, so no value of \
                it can be a delegate (a class instance, held weakly, compared by identity). Make it a class, or \
                declare a protocol for the events and use `MulticastDelegate<any YourProtocol>`.
                """
            )
        }
    }

    @usableFromInline
    @inline(never)
    static func _refuseDeallocating(_ type: AnyObject.Type) -> Never {
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>.add(_:): the \(type) being added is being deallocated (is add called \
            from its deinit?), so it could never be called. No delegate needs to add or remove itself in its \
            deinit: a weak delegate leaves the multicast when it is deallocated.
            """
        )
    }

    @usableFromInline
    @inline(never)
    static func _refuseSelf() -> Never {
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>: the multicast was added to itself as a delegate; its first call \
            would call it again, without end. Add the objects that should receive the events to it; a \
            multicast that stands in for one delegate may be added to another multicast, never to itself.
            """
        )
    }

    @inline(never)
    static func _refuseErrorExistential() -> Never {
        fatalError(
            """
            MulticastDelegate<any Error>: an `any Error` value may keep its class instance in a box, which the \
            multicast cannot hold weakly or tell apart by identity. Declare a protocol for the events, for \
            example `protocol FailureObserver: AnyObject, Error`, and use \
            `MulticastDelegate<any FailureObserver>`.
            """
        )
    }
}

/// The kind of the type's metadata: the Swift runtime's own function, which the standard library's reflection
/// calls the same way.
@_silgen_name("swift_getMetadataKind")
func _metadataKind(_ type: Any.Type) -> UInt32

/// The kinds of type metadata that decide whether a type's values can be delegates, under the Swift runtime's
/// names and with its values (`MetadataKind` in the runtime's `include/swift/ABI/MetadataKind.def`). A value is
/// an index ORed with the runtime's flags (`MetadataValues.h`): 0x200 for metadata that is not a heap object's,
/// 0x100 for kinds that only the runtime creates, whose values the runtime does not promise to code outside it;
/// `RefusalTests` checks the outcome for each kind a mistake can have. Struct, enum, tuple, metatype and the
/// other kinds, which no delegate's type has, are left out: they read as nil.
private enum MetadataKind: UInt32 {
    /// A Swift class.
    case `class` = 0
    /// `Optional`: 2 | 0x200.
    case optional = 0x202
    /// A foreign class, such as a Core Foundation class: 3 | 0x200.
    case foreignClass = 0x203
    /// A reference type imported from C++: 4 | 0x200.
    case foreignReferenceType = 0x204
    /// A function type: 2 | 0x200 | 0x100.
    case function = 0x302
    /// An existential (a protocol or a composition): 3 | 0x200 | 0x100.
    case existential = 0x303
    /// An Objective-C class, wrapped: 5 | 0x200 | 0x100.
    case objCClassWrapper = 0x305
    /// An extended existential (a constrained protocol, such as `any Collection<Int>`): 7 | 0x200 | 0x100.
    case extendedExistential = 0x307
}

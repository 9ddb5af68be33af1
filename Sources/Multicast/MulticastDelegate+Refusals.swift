// What a mistake that can never work stops with: a message that says what happened and what to do. Each one
// is checked by its message in RefusalTests, in a child process that stops before it writes its coverage, so
// CI's coverage figure leaves this file out.

import _MulticastCore

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
        switch _MetadataKind(Delegate.self) {
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

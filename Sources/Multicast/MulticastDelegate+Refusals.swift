// What a mistake that can never work stops with: a message that says what happened and what to do. RefusalTests
// checks each in a child process, which stops before it writes its coverage: CI's coverage leaves this file out.

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

    /// Stops the program with a message that says what to declare instead of `Delegate`, which ``_DelegateKind``
    /// refused for `refusal`.
    static func _refuse(_ refusal: _DelegateKind.Refusal) -> Never {
        switch refusal {
        case .errorExistential where Delegate.self == (any Error).self:
            fatalError(
                """
                MulticastDelegate<any Error>: an `any Error` value may keep its class instance in a box, which the \
                multicast cannot hold weakly or tell apart by identity. Declare a protocol for the events, for \
                example `protocol FailureObserver: AnyObject, Error`, and use \
                `MulticastDelegate<any FailureObserver>`.
                """
            )
        case .errorExistential:
            fatalError(
                """
                MulticastDelegate<\(Delegate.self)>: the Swift runtime represents an `Error` existential with a \
                class constraint as it does `any Error`, in a box, while compiled code keeps the object and its \
                witness table: the multicast cannot store such values safely. Declare a protocol for the events \
                that refines both, for example `protocol FailureObserver: AnyObject, Error` (or \
                `: YourClass, Error`), and use `MulticastDelegate<any FailureObserver>`.
                """
            )
        case .layout(let size, let alignment, let described):
            fatalError(
                """
                MulticastDelegate<\(Delegate.self)>: generic code lays out a value of \(Delegate.self) in \(size) \
                bytes, aligned to \(alignment), where the Swift runtime's metadata describes \(described) bytes \
                aligned to a word: the multicast cannot store such values safely. Declare a protocol for the \
                events, for example `protocol Listener: AnyObject { func hear() }`, and use \
                `MulticastDelegate<any Listener>`.
                """
            )
        case .closure:
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
        case .neitherClassNorProtocol:
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
    static func _refuseDeallocating(_ object: _Object) -> Never {
        let type: AnyObject.Type = unsafe type(of: object.takeUnretainedValue())  // alive: the caller's
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
    static func _refuseOtherRetention(_ object: _Object, asked retention: Retention) -> Never {
        let type: AnyObject.Type = unsafe type(of: object.takeUnretainedValue())  // alive: the caller's
        let (asked, held) = retention.isStrong ? (".strong", ".weak") : (".weak", ".strong")
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>.add(_:retention:): the \(type) being added with \(asked) is \
            registered already, held \(held). A delegate has one retention, and adding it again does not change \
            it: remove it first, then add it again with \(asked).
            """
        )
    }

    @usableFromInline
    @inline(never)
    static func _refuseOwnOwner(_ object: _Object) -> Never {
        let type: AnyObject.Type = unsafe type(of: object.takeUnretainedValue())  // alive: the caller's
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>.add(_:ownedBy:): the \(type) being added is its own owner. An owned \
            delegate is held strongly until its owner dies, so it would keep itself alive for as long as the \
            multicast lives: add it with `retention: .strong`, or name as its owner the object whose life its \
            registration should last.
            """
        )
    }

    @usableFromInline
    @inline(never)
    static func _refuseSelfAsOwner() -> Never {
        fatalError(
            """
            MulticastDelegate<\(Delegate.self)>.add(_:ownedBy:): the multicast was named as the owner of one of its \
            own registrations, which would then last as long as the multicast, held strongly: add the delegate \
            with `retention: .strong` instead, or name as its owner the object whose life it should last.
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
}

import Testing

@testable import Multicast
@testable import _MulticastCore

/// Every kind of type that can hold a class instance, as a multicast's `Delegate`: each one works the same
/// way, or is refused with a message that names it.
@MainActor
@Suite struct DelegateTypeTests {
    let log = CallLog()

    @Test func concreteClass() {
        checkDelegateType(MulticastDelegate<Probe>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func superclass() {
        checkDelegateType(MulticastDelegate<ProbeBase>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func anyObject() {
        checkDelegateType(
            MulticastDelegate<AnyObject>(), make: probe, wrap: { $0 }, hear: { ($0 as! Probe).hear() })
    }

    @Test func classBoundProtocol() {
        checkDelegateType(
            MulticastDelegate<any ClassBoundEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func protocolThatIsNotClassBound() {
        checkDelegateType(MulticastDelegate<any OpenEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func protocolComposition() {
        checkDelegateType(
            MulticastDelegate<any OpenEvents & Tagged>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// A class-bound composition of three words, an object and two witness tables: known to be references, but
    /// more than the two words that `add`, `remove` and `contains` read from a value's bits, so they cast it.
    @Test func classBoundCompositionOfThreeWords() {
        let delegates = MulticastDelegate<any ClassBoundEvents & Tagged>()
        #expect(delegates._core.delegateKind == .references)
        #expect(unsafe _DelegateBits(of: probe("x") as any ClassBoundEvents & Tagged) == nil)
        checkDelegateType(delegates, make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// A composition of three protocols that are not class-bound: seven words, more than `call` lends from its
    /// stack space, so it lends from a variable; a body that throws leaves every delegate's count as it was.
    @Test func compositionOfMoreThanSixWords() {
        typealias Delegate = any OpenEvents & Tagged & Labeled
        #expect(MemoryLayout<Delegate>.size > MemoryLayout<_LendingSpace>.size)
        let delegates = MulticastDelegate<Delegate>()
        do {
            let thrower = probe("thrower")
            delegates.add(thrower, retention: .strong)
            #expect(throws: Stop.self) { try delegates.call { _ throws(Stop) in throw Stop(name: "body") } }
            #expect(delegates.remove(thrower))
            log.clear()
        }
        checkDelegateType(delegates, make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func compositionWithASuperclass() {
        checkDelegateType(
            MulticastDelegate<any ProbeBase & OpenEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func any() {
        checkDelegateType(MulticastDelegate<Any>(), make: probe, wrap: { $0 }, hear: { ($0 as! Probe).hear() })
    }

    /// An `Any` that generic code wrapped a second time keeps the inner `Any` in a box: the multicast finds
    /// the instance through a cast, and stores it unboxed.
    @Test func anyThatHoldsAnotherAny() {
        let probe = probe("probe")
        let firstWord = firstWord(of: wrapTwice(probe), as: Any.self)
        #expect(firstWord != UInt(bitPattern: Unmanaged.passUnretained(probe).toOpaque()))  // a box, not the probe
        checkDelegateType(MulticastDelegate<Any>(), make: self.probe, wrap: wrapTwice, hear: { ($0 as! Probe).hear() })
    }

    @Test func protocolThatRefinesError() {
        checkDelegateType(MulticastDelegate<any FailureEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func compositionOfASuperclassAndAClassBoundProtocol() {
        checkDelegateType(
            MulticastDelegate<any ProbeBase & ClassBoundEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// `Error` with another protocol: the runtime gives it the layout of any composition, and no box.
    @Test func compositionOfAClassBoundProtocolAndError() {
        checkDelegateType(
            MulticastDelegate<any ClassBoundEvents & Error>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func compositionOfAProtocolThatIsNotClassBoundAndError() {
        checkDelegateType(MulticastDelegate<any OpenEvents & Error>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// A constrained protocol: an extended existential, whose metadata is of a kind of its own.
    @Test func constrainedProtocol() {
        checkDelegateType(MulticastDelegate<any Source<Int>>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    @Test func constrainedClassBoundProtocol() {
        checkDelegateType(
            MulticastDelegate<any ClassBoundSource<Int>>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    /// What each type is as a multicast's `Delegate`, as its metadata and `MemoryLayout` decide it: read as
    /// references where every value is one, checked (each value cast) where a value may be something else, `Any`
    /// cast and re-boxed, and a type no value of which can be a delegate refused with its reason.
    @Test func eachDelegateTypeIsDecidedByItsMetadataAndLayout() {
        #expect(decide(Probe.self) == .success(.references))
        #expect(decide(ProbeBase.self) == .success(.references))
        #expect(decide(AnyObject.self) == .success(.references))
        #expect(decide((any ClassBoundEvents).self) == .success(.references))
        #expect(decide((any ClassBoundEvents & Sendable).self) == .success(.references))
        #expect(decide((any ClassBoundEvents & Tagged).self) == .success(.references))
        #expect(decide((any ProbeBase & ClassBoundEvents).self) == .success(.references))
        #expect(decide((any ProbeBase & OpenEvents).self) == .success(.references))
        #expect(decide((any ClassBoundEvents & Error).self) == .success(.references))

        #expect(decide((any OpenEvents).self) == .success(.checked))
        #expect(decide((any OpenEvents & Tagged & Labeled).self) == .success(.checked))
        #expect(decide((any OpenEvents & Error).self) == .success(.checked))
        #expect(decide((any FailureEvents).self) == .success(.checked))
        #expect(decide((any Source<Int>).self) == .success(.checked))
        #expect(decide((any ClassBoundSource<Int>).self) == .success(.checked))

        #expect(decide(Any.self) == .success(.reboxed))
        #expect(decide((any Sendable).self) == .success(.reboxed))

        #expect(decide((any Error).self) == .failure(.errorExistential))
        #expect(decide((any Error & AnyObject).self) == .failure(.errorExistential))
        #expect(decide((any ProbeBase & Error).self) == .failure(.errorExistential))
        #expect(decide((() -> Void).self) == .failure(.closure))
        #expect(decide(Probe?.self) == .failure(.optional))
        #expect(decide(Int.self) == .failure(.neitherClassNorProtocol))
        #expect(decide((Probe, Probe).self) == .failure(.neitherClassNorProtocol))
        #expect(decide(Probe.Type.self) == .failure(.neitherClassNorProtocol))
    }

    /// The metadata is believed only where `MemoryLayout` agrees with it. A class whose values `MemoryLayout`
    /// lays out otherwise than as one word takes the checked path; an existential whose layout disagrees with
    /// the one its flags describe is refused, as one whose flags cannot be read takes the checked path; and a
    /// kind this code does not know, or cannot meet on Linux, is checked, never refused.
    @Test func theMetadataIsBelievedOnlyWhereTheLayoutAgreesWithIt() {
        let word = MemoryLayout<UnsafeRawPointer>.size
        let aligned = MemoryLayout<UnsafeRawPointer>.alignment
        let classBound = _ExistentialFlags((any ClassBoundEvents).self)
        #expect(classBound?.witnessTableCount == 1)
        #expect(decide(.existential, classBound, size: 2 * word, alignment: aligned) == .success(.references))
        for (size, alignment) in [(word, aligned), (3 * word, aligned), (2 * word, 1)] {
            #expect(
                decide(.existential, classBound, size: size, alignment: alignment)
                    == .failure(.layout(size: size, alignment: alignment, described: 2 * word)))
        }
        #expect(decide(.existential, nil, size: 2 * word, alignment: aligned) == .success(.checked))

        for kind in [_MetadataKind.class, .objCClassWrapper] {
            #expect(decide(kind, nil, size: word, alignment: aligned) == .success(.references))
            #expect(decide(kind, nil, size: 2 * word, alignment: aligned) == .success(.checked))
            #expect(decide(kind, nil, size: word, alignment: 1) == .success(.checked))
        }

        let open = _ExistentialFlags((any OpenEvents).self)
        #expect(decide(.existential, open, size: 5 * word, alignment: aligned) == .success(.checked))
        #expect(
            decide(.existential, open, size: 4 * word, alignment: aligned)
                == .failure(.layout(size: 4 * word, alignment: aligned, described: 5 * word)))
        let any = _ExistentialFlags(Any.self)
        #expect(decide(.existential, any, size: 4 * word, alignment: aligned) == .success(.reboxed))
        #expect(
            decide(.existential, any, size: 3 * word, alignment: aligned)
                == .failure(.layout(size: 3 * word, alignment: aligned, described: 4 * word)))

        // `any Error & AnyObject`: one witness table, class-bound, and the special protocol `Error`.
        let errorObject = _ExistentialFlags((any Error & AnyObject).self)
        #expect(errorObject?.hasSpecialProtocol == true && errorObject?.isClassBound == true)
        #expect(decide(.existential, errorObject, size: 2 * word, alignment: aligned) == .failure(.errorExistential))
        #expect(decide(.existential, errorObject, size: word, alignment: aligned) == .failure(.errorExistential))

        #expect(_MetadataKind(rawValue: 0x3FF) == nil)  // a kind this runtime does not have
        for kind in [nil, _MetadataKind.foreignClass, .foreignReferenceType, .extendedExistential] {
            #expect(decide(kind, nil, size: word, alignment: aligned) == .success(.checked))
            #expect(decide(kind, nil, size: 3, alignment: 1) == .success(.checked))
        }
    }

    /// What `_DelegateKind` decides for `type`, or why it refuses it.
    func decide<Delegate>(_ type: Delegate.Type) -> Result<_DelegateKind, _DelegateKind.Refusal> {
        Result { () throws(_DelegateKind.Refusal) in try _DelegateKind(of: type) }
    }

    /// What `_DelegateKind` decides for a type of metadata of `kind` and `flags`, and values of `size` and
    /// `alignment`, or why it refuses it.
    func decide(_ kind: _MetadataKind?, _ flags: _ExistentialFlags?, size: Int, alignment: Int)
        -> Result<_DelegateKind, _DelegateKind.Refusal>
    {
        Result { () throws(_DelegateKind.Refusal) in
            try _DelegateKind(metadataKind: kind, flags: flags, size: size, alignment: alignment)
        }
    }

    @Test func mainActorProtocol() {
        checkDelegateType(MulticastDelegate<any ScreenEvents>(), make: probe, wrap: { $0 }, hear: { $0.hear() })
    }

    func probe(_ name: String) -> Probe {
        Probe(name, log: log)
    }

    /// Adds, adds again, calls, finds, counts and removes delegates of one type, and checks that a weak one
    /// that dies is gone, that a strong one is released when removed, and that nothing is leaked.
    func checkDelegateType<Object: AnyObject, Delegate>(
        _ delegates: MulticastDelegate<Delegate>,
        make: (String) -> Object,
        wrap: (Object) -> Delegate,
        hear: (Delegate) -> Void
    ) {
        var everyObject: [() -> AnyObject?] = []
        do {
            let (a, b, c) = (make("a"), make("b"), make("c"))
            everyObject += [{ [weak a] in a }, { [weak b] in b }, { [weak c] in c }]
            #expect(delegates.add(wrap(a)))
            #expect(delegates.add(wrap(b), retention: .strong))
            #expect(delegates.add(wrap(c)))
            #expect(!delegates.add(wrap(a)))
            #expect(!delegates.add(wrap(b), retention: .strong))
            delegates.call(hear)
            #expect(log.calls == ["a", "b", "c"])
            #expect(delegates.contains(wrap(a)) && delegates.contains(wrap(b)) && delegates.contains(wrap(c)))
            #expect(delegates.count == 3)

            #expect(delegates.remove(wrap(a)))
            #expect(!delegates.remove(wrap(a)))
            #expect(!delegates.contains(wrap(a)))
            #expect(delegates.count == 2)
            log.clear()
            delegates.call(hear)
            #expect(log.calls == ["b", "c"])

            do {
                let dying = make("dying")
                everyObject.append { [weak dying] in dying }
                #expect(delegates.add(wrap(dying)))
                #expect(delegates.count == 3)
            }
            #expect(everyObject.last!() == nil)  // held weakly
            #expect(delegates.count == 2)
            log.clear()
            delegates.call(hear)
            #expect(log.calls == ["b", "c"])
        }
        #expect(everyObject[1]() != nil)  // "b" is held strongly
        #expect(delegates.remove(wrap(everyObject[1]() as! Object)))
        #expect(everyObject.allSatisfy { $0() == nil })
        #expect(delegates.isEmpty)
    }
}

/// `value` in an `Any`, as generic code wraps it: `Value` may be `Any` itself, whose values are then boxed. (The
/// metatype keeps Swift 6 from opening an `Any` argument, which would unwrap it.)
func wrapAgain<Value>(_ value: Value, as _: Value.Type) -> Any { value }

/// The first word of `value`'s own representation (for an `Any`, of its container, not of what it holds).
func firstWord<Value>(of value: Value, as _: Value.Type) -> UInt {
    withUnsafeBytes(of: value) { $0.load(as: UInt.self) }
}

/// A probe in an `Any` in an `Any`.
func wrapTwice(_ probe: Probe) -> Any {
    let inner: Any = probe
    return wrapAgain(inner, as: Any.self)
}

class ProbeBase {
    let name: String
    let log: CallLog

    init(_ name: String, log: CallLog) {
        self.name = name
        self.log = log
    }

    func hear() {
        log.append(name)
    }
}

protocol ClassBoundEvents: AnyObject {
    func hear()
}

protocol OpenEvents {
    func hear()
}

protocol Tagged {}

protocol Labeled {}

protocol Source<Element> {
    associatedtype Element
    func hear()
}

protocol ClassBoundSource<Element>: AnyObject {
    associatedtype Element
    func hear()
}

protocol FailureEvents: Error {
    func hear()
}

// Unchecked: `FailureEvents` is an `Error`, so `Sendable`; the tests use a probe on one thread at a time.
final class Probe: ProbeBase, ClassBoundEvents, OpenEvents, Tagged, Labeled, FailureEvents, Source,
    ClassBoundSource, @unchecked Sendable
{
    typealias Element = Int
}

@MainActor
protocol ScreenEvents: AnyObject {
    func hear()
}

// An isolated conformance: the probe answers main-actor events on the main actor.
extension Probe: @MainActor ScreenEvents {}

/// What a type is as a multicast's `Delegate`, decided once, when the multicast is made, from the runtime's type
/// metadata (``_MetadataKind``, ``_ExistentialFlags``): refused, with the reason thrown; or how the multicast finds
/// the object that each delegate is.
///
/// A wrong ``references`` would make the multicast read a value that is not an object as one, so it is the answer
/// only where the metadata and `MemoryLayout` agree that a value is a word for the object and one for each witness
/// table, at a word's alignment. A kind this code does not know (a later runtime's) is ``checked``, never refused.
@frozen
@usableFromInline
package enum _DelegateKind: Sendable {
    /// Every value is a class reference, held in its first word: a class, or a class-bound protocol or
    /// composition (`any P` where `P: AnyObject`, `AnyObject`, `C & P`). The multicast reads the object from the
    /// value's bits (see ``_DelegateBits``), with no cast.
    case references

    /// A value may be something other than a class reference (a protocol that is not class-bound, a constrained
    /// protocol, a kind of metadata this code does not know): each value is cast to find its object (see
    /// ``object(of:)``), and one that is not a class instance is refused.
    case checked

    /// `Any` (and `any Sendable`, which is `Any` to the runtime): checked as ``checked`` is, and more. A value that
    /// generic code wrapped a second time holds the inner existential in a box, where the object is not the first
    /// word, so the object is found by an unwrapping cast, and the multicast stores it re-boxed, in an `Any` of its
    /// own, whose first word it is.
    case reboxed

    /// Why a type cannot be a multicast's `Delegate`.
    package enum Refusal: Error, Equatable {
        /// An existential that the runtime represents in a way of its own: `any Error`, alone or with a class
        /// constraint, whose values generic code may keep in a box.
        case errorExistential
        /// An existential whose values have another size or alignment than its metadata describes, as
        /// `MemoryLayout` sees them here.
        case layout(size: Int, alignment: Int, described: Int)
        case closure
        case optional
        /// A struct, an enum, a tuple, a metatype: a type no value of which is a class instance.
        case neitherClassNorProtocol
    }

    /// What a type is as a multicast's `Delegate`, from what its metadata says (its `metadataKind`, nil for a
    /// kind this code does not know, and an existential's `flags`) and what `MemoryLayout` says of its values
    /// (`size`, `alignment`); throws why the type is refused, if it is.
    package init(metadataKind: _MetadataKind?, flags: _ExistentialFlags?, size: Int, alignment: Int) throws(Refusal) {
        let word = unsafe MemoryLayout<UnsafeRawPointer>.size
        let wordAlignment = unsafe MemoryLayout<UnsafeRawPointer>.alignment
        switch metadataKind {
        case .existential:
            guard let flags else {
                self = .checked
                return
            }
            guard let described = flags.sizeOfValue else { throw .errorExistential }
            guard size == described && alignment == wordAlignment else {
                throw .layout(size: size, alignment: alignment, described: described)
            }
            if flags.isClassBound {
                self = .references
            } else if flags.witnessTableCount == 0 {
                self = .reboxed
            } else {
                self = .checked
            }
        case .class, .objCClassWrapper:
            self = size == word && alignment == wordAlignment ? .references : .checked
        case .foreignClass, .foreignReferenceType, .extendedExistential, nil:
            self = .checked
        case .function:
            throw .closure
        case .optional:
            throw .optional
        case .struct, .enum, .opaque, .tuple, .metatype, .existentialMetatype:
            throw .neitherClassNorProtocol
        }
    }

    /// What `type` is as a multicast's `Delegate`, from its metadata and `MemoryLayout`; throws why it is refused.
    package init<Delegate>(of type: Delegate.Type) throws(Refusal) {
        try self.init(
            metadataKind: _MetadataKind(type), flags: _ExistentialFlags(type), size: MemoryLayout<Delegate>.size,
            alignment: MemoryLayout<Delegate>.alignment)
    }

    /// The object that `delegate`, a value of a type of this kind, is, unretained, or nil if it is not a class
    /// instance: its first word, but for ``reboxed`` (for ``references``, the multicast reads the bits instead: see
    /// ``_DelegateBits``). A class instance is stored first in every representation of a delegate type that can hold
    /// one (a class, a class-bound existential, the inline buffer of any other existential), but for `any Error`,
    /// which is refused. `delegate` keeps the object alive.
    @inlinable
    @unsafe
    package func object<Delegate>(of delegate: Delegate) -> _Object? {
        guard type(of: delegate as Any) is AnyObject.Type else { return nil }
        switch self {
        case .reboxed:
            return unsafe _Object(delegate as AnyObject)
        case .references, .checked:
            return unsafe withUnsafeBytes(of: delegate) { unsafe _Object(address: $0.load(as: UnsafeRawPointer.self)) }
        }
    }

    /// Calls `body` with the bits to store for `delegate`, whose object is `object` (see ``object(of:)``): the value's
    /// own, or for ``reboxed``, those of an `Any` of its own around the object, whose first word it is.
    @unsafe
    @inlinable
    package func withBitsToStore<Delegate, Result>(
        of delegate: Delegate, object: _Object, _ body: (UnsafeRawPointer) -> Result
    ) -> Result {
        switch self {
        case .reboxed: return unsafe withUnsafePointer(to: object.takeUnretainedValue() as Any) { unsafe body($0) }
        case .references, .checked: return unsafe withUnsafePointer(to: delegate) { unsafe body($0) }
        }
    }
}

/// What the core knows of the delegates' type's layout: how many bytes a value has, and how values are laid out
/// in an array. Everything else it does with a delegate, it does with the object that the delegate is.
@usableFromInline
package struct _DelegateLayout: Sendable {
    @usableFromInline
    let size: Int

    @usableFromInline
    let stride: Int

    let alignment: Int

    package init<Delegate>(of type: Delegate.Type) {
        // `_Slot.lend(as:_:)` may hold a delegate in a `Delegate?` filled with its bits: the nil must take spare
        // bits, as it does for a class, a protocol or a composition, leaving `.some` bit for bit the delegate.
        precondition(
            MemoryLayout<Delegate?>.size == MemoryLayout<Delegate>.size,
            "Multicast needs a delegate type whose values have spare bits, as classes and protocols do")
        size = MemoryLayout<Delegate>.size
        stride = MemoryLayout<Delegate>.stride
        alignment = MemoryLayout<Delegate>.alignment
    }
}

/// A copy of the bits of a delegate of one word, its object, or two, its object and a witness table (a class, a
/// class-bound protocol): what `add` stores, and where `add`, `remove` and `contains` read the object, for a type
/// of ``_DelegateKind/references``. Made in the caller's code, where the type is known: there an `unsafeBitCast`
/// to words of the same size is a load, where an unoptimized build calls `withUnsafeBytes(of:)` and
/// `withUnsafePointer(to:)` as generic functions. The words are trivial: the copy counts nothing, and the delegate
/// stays the caller's.
@frozen
@unsafe
@usableFromInline
package struct _DelegateBits {
    /// The first word: the object's address.
    @usableFromInline
    var first: UnsafeRawPointer

    /// The second word of a delegate of two: a witness table.
    @usableFromInline
    var second: UnsafeRawPointer?

    @inlinable
    @inline(always)
    init(first: UnsafeRawPointer, second: UnsafeRawPointer?) {
        unsafe self.first = first
        unsafe self.second = second
    }

    /// The bits of `delegate`, a class reference, or nil if its values are neither one word nor two.
    @inlinable
    @inline(always)
    package init?<Delegate>(of delegate: Delegate) {
        let size = MemoryLayout<Delegate>.size
        let word = unsafe MemoryLayout<UnsafeRawPointer>.size
        guard unsafe size == word || size == MemoryLayout<_DelegateBits>.size else { return nil }
        #if DEBUG
        if size == word {
            unsafe self.init(first: unsafeBitCast(delegate, to: UnsafeRawPointer.self), second: nil)
        } else {
            unsafe self = unsafe unsafeBitCast(delegate, to: _DelegateBits.self)
        }
        #else
        // An optimized build specializes `withUnsafeBytes(of:)` into loads; its copy propagation fails on an
        // `unsafeBitCast` of a class reference to a word (Swift 6.3.1: "Found outside of lifetime use").
        unsafe self = unsafe withUnsafeBytes(of: delegate) { bytes in
            unsafe _DelegateBits(
                first: bytes.load(as: UnsafeRawPointer.self),
                second: size == word ? nil : bytes.load(fromByteOffset: word, as: UnsafeRawPointer?.self))
        }
        #endif
    }

    /// The delegate's object, unretained.
    @inlinable
    @inline(always)
    package var object: _Object {
        unsafe _Object(address: first)
    }
}

/// An object, unretained: how an object passes into and through the core, which compares it and files it by its
/// address, and counts it only where a slot says so (see ``_Slot``), with no count taken and given back on the way.
/// Making one and reading the object through it are `unsafe` (see "Unsafe code" in CONTRIBUTING.md): whoever makes
/// one keeps the object alive for as long as anything reads the object through it.
@frozen
@safe
@usableFromInline
package struct _Object {
    @usableFromInline
    let unmanaged: Unmanaged<AnyObject>

    /// `object`, which the caller keeps alive while the object is read through this. (Borrowed: an initializer's
    /// argument is otherwise consumed, which costs an unoptimized build a retain and a release.)
    @unsafe
    @inlinable
    @inline(always)
    package init(_ object: borrowing AnyObject) {
        unsafe unmanaged = .passUnretained(object)
    }

    /// The object at `address`, which the caller keeps alive while the object is read through this.
    @unsafe
    @inlinable
    @inline(always)
    package init(address: UnsafeRawPointer) {
        unsafe unmanaged = .fromOpaque(address)
    }

    /// The object's address, which the registry files registrations under, read without touching the object.
    @inlinable
    @inline(always)
    package var address: UInt {
        unsafe UInt(bitPattern: unmanaged.toOpaque())
    }

    @inlinable
    @inline(always)
    package func isIdentical<Other: AnyObject>(to other: Other) -> Bool {
        unsafe unmanaged.toOpaque() == Unmanaged.passUnretained(other).toOpaque()
    }

    @inlinable
    @inline(always)
    package func isIdentical(to other: _Object) -> Bool {
        unsafe unmanaged.toOpaque() == other.unmanaged.toOpaque()
    }

    /// The object, which must be alive.
    @unsafe
    @inlinable
    @inline(always)
    package func takeUnretainedValue() -> AnyObject {
        unsafe unmanaged.takeUnretainedValue()
    }

    /// Takes a count on the object, which must be alive: a strong slot's, which ``takeRetainedValue()`` gives back.
    @unsafe
    @inlinable
    @inline(always)
    func retain() {
        _ = unsafe unmanaged.retain()
    }

    /// The object, taking over a count that ``retain()`` took.
    @unsafe
    @inlinable
    @inline(always)
    func takeRetainedValue() -> AnyObject {
        unsafe unmanaged.takeRetainedValue()
    }
}

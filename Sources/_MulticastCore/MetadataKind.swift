/// The kinds of type metadata that decide whether a type's values can be delegates, and how the core reads
/// them, under the Swift runtime's names and with its values (`MetadataKind` in the runtime's
/// `include/swift/ABI/MetadataKind.def`). A value is an index ORed with the runtime's flags
/// (`MetadataValues.h`): 0x200 for metadata that is not a heap object's, 0x100 for kinds that only the runtime
/// creates, whose values the runtime does not promise to code outside it. The kinds of what is not a type (heap
/// boxes, tasks) are left out, and so is any kind a later runtime adds: they read as nil, which makes a
/// multicast check each delegate it is given, and refuse none for its type alone.
///
/// Tested by what ``_DelegateKind`` decides for each kind (`DelegateTypeTests`) and the refusals they lead to
/// (`RefusalTests`); a Linux build cannot make the foreign class, C++ reference type and Objective-C class wrapper
/// kinds, whose values are taken from the runtime's headers, untested.
package enum _MetadataKind: UInt32 {
    case `class` = 0
    case `struct` = 0x200
    case `enum` = 0x201
    case optional = 0x202
    case foreignClass = 0x203  // such as a Core Foundation class
    case foreignReferenceType = 0x204  // a reference type imported from C++
    case opaque = 0x300  // a builtin type of the standard library's implementation
    case tuple = 0x301
    case function = 0x302
    case existential = 0x303  // a protocol or a composition
    case metatype = 0x304  // `T.Type`
    case objCClassWrapper = 0x305
    case existentialMetatype = 0x306  // `any P.Type`
    case extendedExistential = 0x307  // a constrained protocol, such as `any Collection<Int>`

    /// The kind of `type`'s metadata, or nil for a kind not listed.
    package init?(_ type: Any.Type) {
        self.init(rawValue: _metadataKind(type))
    }
}

/// The flags of an existential type's metadata, the 32 bits after its kind word (`ExistentialTypeFlags` in the
/// runtime's `MetadataValues.h`), and the layout of a value that they describe.
///
/// The core trusts them only where they agree with what `MemoryLayout` says of the type (see
/// ``_DelegateKind/init(metadataKind:flags:size:alignment:)``): a disagreement means a representation that it
/// does not know.
package struct _ExistentialFlags: Equatable {
    package let rawValue: UInt32

    /// The flags of `type`'s metadata, or nil if it is not an existential's. (An extended existential's
    /// metadata has another shape, with no such word.)
    package init?(_ type: Any.Type) {
        guard _MetadataKind(type) == .existential else { return nil }
        rawValue = unsafe unsafeBitCast(type, to: UnsafeRawPointer.self)
            .load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self)
    }

    /// How many witness tables a value holds: one for each protocol of the existential that has one.
    package var witnessTableCount: Int {
        Int(rawValue & 0x00FF_FFFF)
    }

    /// Whether every value is a class reference: the runtime sets the flag for an existential that is not
    /// class-bound.
    package var isClassBound: Bool {
        rawValue & 0x8000_0000 == 0
    }

    /// Whether the runtime represents the existential in a way of its own: `any Error`, alone or with a class
    /// constraint (`any Error & AnyObject`, `any C & Error`), whose values generic code keeps in a box of
    /// one word, whatever compiled code does.
    package var hasSpecialProtocol: Bool {
        rawValue & 0x3F00_0000 != 0
    }

    /// The size of a value as the flags describe it, or nil for a special protocol, whose representation is
    /// its own: a class-bound value is the object's word then a word per witness table; any other, a buffer of
    /// three words, a word for the dynamic type's metadata, then a word per witness table.
    package var sizeOfValue: Int? {
        guard !hasSpecialProtocol else { return nil }
        let word = unsafe MemoryLayout<UnsafeRawPointer>.size
        return ((isClassBound ? 1 : 4) + witnessTableCount) * word
    }
}

/// The kind of the type's metadata: the Swift runtime's own function, which the standard library's reflection
/// calls the same way.
@_silgen_name("swift_getMetadataKind")
func _metadataKind(_ type: Any.Type) -> UInt32

/// The kinds of type metadata that decide whether a type's values can be delegates, and how the core reads
/// them, under the Swift runtime's names and with its values (`MetadataKind` in the runtime's
/// `include/swift/ABI/MetadataKind.def`). A value is an index ORed with the runtime's flags
/// (`MetadataValues.h`): 0x200 for metadata that is not a heap object's, 0x100 for kinds that only the runtime
/// creates, whose values the runtime does not promise to code outside it. Struct, enum, tuple, metatype and the
/// other kinds, which no delegate's type has, are left out: they read as nil.
///
/// Tested: the function and optional kinds and a kind read as nil, each by the refusal it leads to
/// (`RefusalTests`); the class and existential kinds, as delegate types (`DelegateTypeTests`) and as the kinds
/// the core reads faster (`SlotTests`). Not tested: the foreign class, C++ reference type and Objective-C class
/// wrapper kinds, which a Linux build cannot make, and the extended existential; for those the values above
/// are the runtime's.
package enum _MetadataKind: UInt32 {
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

    /// The kind of `type`'s metadata, or nil for a kind not listed.
    package init?(_ type: Any.Type) {
        self.init(rawValue: _metadataKind(type))
    }
}

/// The kind of the type's metadata: the Swift runtime's own function, which the standard library's reflection
/// calls the same way.
@_silgen_name("swift_getMetadataKind")
func _metadataKind(_ type: Any.Type) -> UInt32

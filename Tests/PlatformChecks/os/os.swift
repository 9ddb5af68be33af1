// A stand-in for Apple's `os` module, for Scripts/check-apple-platforms.sh: built for each Apple triple and put on
// the search path, it makes `canImport(os)` true, so that the `os` branches of Multicast
// (MulticastDelegate+Signposts.swift) are type-checked against these declarations and nothing more. Not Apple's
// SDK: never linked, never run; every body traps.
//
// Each declaration follows the `os` overlay of Apple's SDK, with its availability, parameter labels and default
// arguments, and only what the package uses is declared: one more lenient than Apple's would let through code
// that Xcode rejects. Nothing here is declared `Sendable`, so the package cannot rely on a conformance that an
// older SDK might lack.

/// The stand-in's bodies: nothing here runs.
private func standIn() -> Never {
    fatalError("a stand-in of Apple's os module, for type-checking only")
}

// The message of a log or signpost: a string literal whose interpolations take a privacy, from macOS 11, iOS 14,
// tvOS 14, watchOS 7.

@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
public struct OSLogPrivacy {
    public static var `public`: OSLogPrivacy { standIn() }
}

@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
public struct OSLogStringAlignment {
    public static var none: OSLogStringAlignment { standIn() }
}

@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
public struct OSLogInterpolation: StringInterpolationProtocol {
    public init(literalCapacity: Int, interpolationCount: Int) {
        standIn()
    }

    public mutating func appendLiteral(_ literal: String) {
        standIn()
    }

    public mutating func appendInterpolation(
        _ argumentString: @autoclosure @escaping () -> String,
        align: OSLogStringAlignment = .none,
        privacy: OSLogPrivacy = .auto
    ) {
        standIn()
    }
}

@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
extension OSLogPrivacy {
    public static var auto: OSLogPrivacy { standIn() }
}

@available(macOS 11.0, iOS 14.0, watchOS 7.0, tvOS 14.0, *)
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral {
    public init(stringInterpolation: OSLogInterpolation) {
        standIn()
    }

    public init(stringLiteral value: String) {
        standIn()
    }
}

// A signpost's identity, from macOS 10.14, iOS 12, tvOS 12, watchOS 5.

@available(macOS 10.14, iOS 12.0, watchOS 5.0, tvOS 12.0, *)
public struct OSSignpostID {
    public static var exclusive: OSSignpostID { standIn() }  // a constant in the SDK
}

// Signposts as intervals, from macOS 12, iOS 15, tvOS 15, watchOS 8.

@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *)
public final class OSSignpostIntervalState {}

@available(macOS 12.0, iOS 15.0, watchOS 8.0, tvOS 15.0, *)
public struct OSSignposter {
    public init(subsystem: String, category: String) {
        standIn()
    }

    public var isEnabled: Bool { standIn() }

    public func makeSignpostID() -> OSSignpostID {
        standIn()
    }

    public func beginInterval(_ name: StaticString, id: OSSignpostID = .exclusive, _ message: OSLogMessage)
        -> OSSignpostIntervalState
    {
        standIn()
    }

    public func endInterval(_ name: StaticString, _ state: OSSignpostIntervalState) {
        standIn()
    }
}

// Which contenders each scenario measures, in table order.

/// Every contender of the call benchmarks, in table order.
let callContenders: [any Contender.Type] = {
    var contenders: [any Contender.Type] = [
        MulticastWeak.self, MulticastStrong.self, MulticastOwned.self, NotificationCenterWeak.self,
        NotificationCenterWeakNoPayload.self, NotificationCenterStrong.self, SeedOneStyle.self, SeedTwoStyle.self,
        StrongFloor.self, WeakFloor.self, MulticastMainActor.self,
    ]
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        contenders.append(MainActorMessageWeak.self)
    }
    return contenders
}()

/// The contenders of the add-and-remove benchmark.
let registeringContenders: [any Registering.Type] = [
    MulticastWeak.self, NotificationCenterWeak.self, SeedOneStyle.self, SeedTwoStyle.self,
]

/// The contenders of the benchmark that adds and removes one delegate among many.
let pairingContenders: [any Registering.Type] = [MulticastWeak.self, MulticastStrong.self, NotificationCenterWeak.self]

/// The contenders of the benchmark that adds many fresh delegates to a new multicast and removes them in a
/// shuffled order, in table order.
let bulkContenders: [any Registering.Type] = [
    MulticastWeak.self, MulticastStrong.self, MulticastOwned.self, MulticastOwnedClosure.self,
    NotificationCenterWeak.self, SeedOneStyle.self, SeedTwoStyle.self,
]

/// The contenders of the async-delivery benchmark, in table order.
let asyncContenders: [any AsyncContender.Type] = {
    var contenders: [any AsyncContender.Type] = [MulticastAsyncCall.self, MulticastConcurrentCall.self]
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        contenders.append(AsyncMessageWeak.self)
    }
    return contenders
}()

/// The contenders of the churn benchmark, and Multicast without the removing thread, in table order.
let churnContenders: [(name: String, make: @Sendable ([Counter]) -> any Registering & Sendable, churning: Bool)] = [
    (MulticastWeak.name, { MulticastWeak($0) }, true),
    (NotificationCenterWeak.name, { NotificationCenterWeak($0) }, true),
    (MulticastWeak.name + ", quiet", { MulticastWeak($0) }, false),
]

// The floors: the least that calling delegates held strongly, or weakly, can cost.

/// Floor (i): a strong `[any Receiver]` loop over objects that are never weakly referenced.
final class StrongFloor: Contender {
    static let name = "Floor (i): strong array"
    let receivers: [any Receiver]

    init(_ receivers: [Counter]) {
        self.receivers = receivers
    }
    func callAll(_ value: Int) {
        for receiver in receivers { receiver.receive(value) }
    }
}

/// Floor (ii): one in-place weak load per delegate, from `weak var` fields read through a pointer; no lock,
/// no snapshot. Nothing that holds delegates weakly can do less.
final class WeakFloor: Contender {
    struct WeakField {
        weak var receiver: (any Receiver)?
    }

    static let name = "Floor (ii): in-place weak loads"
    let fields: UnsafeMutablePointer<WeakField>
    let count: Int

    init(_ receivers: [Counter]) {
        count = receivers.count
        fields = .allocate(capacity: Swift.max(count, 1))
        for (index, receiver) in receivers.enumerated() {
            (fields + index).initialize(to: WeakField(receiver: receiver))
        }
    }
    func callAll(_ value: Int) {
        for index in 0..<count {
            if let receiver = fields[index].receiver {
                receiver.receive(value)
            }
        }
    }
    deinit {
        fields.deinitialize(count: count)
        fields.deallocate()
    }
}

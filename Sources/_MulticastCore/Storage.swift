import _MulticastShims

/// What a storage keeps at the start of its memory: what a pass reads as it enters (see ``_Core/enterPass()``).
@safe  // plain words, in the storage's memory, which the storage frees once
@usableFromInline
struct _StorageHeader {
    /// Slots in use; slots `0..<count` are occupied and in registration order. Written under the lock, with release
    /// ordering, after what it counts; read by passes with acquire ordering. The first field, so that its address
    /// is the header's.
    @usableFromInline
    var count = 0

    /// The first slot.
    @usableFromInline
    let base: _Slot
}

/// The memory of one multicast's delegates, in registration order: it owns what its handle, ``_StorageHandle``, reads
/// and writes.
///
/// A pass (a `call`, an iteration, `count`) enters the current storage through the gate (see ``_Gate``) and then
/// reads slots `0..<count` of it without the lock. While passes read it, slots below `count` change only in their
/// keys; a slot is released, moved or rewritten only when no pass reads it. Appending past `count` is always
/// allowed: no pass reads there. The registry keeps every storage alive while a pass reads it, so passes do
/// not retain it.
///
/// One allocation holds the header, then the slot states, then the delegates' bits, each array at the
/// alignment of its type; its addresses never change. Its ``_Ticket``, which passes count themselves into, is the
/// registry's, in memory of its own.
@safe  // it owns its memory, and frees it once, in deinit
@usableFromInline
final class _Storage {
    /// The pointer work on this storage's memory.
    @usableFromInline
    let slots: _StorageHandle

    /// A storage of `capacity` slots for delegates laid out as `layout`, whose ticket `tickets` gives.
    init(capacity: Int, layout: _DelegateLayout, tickets: inout _Tickets) {
        let capacity = Swift.max(capacity, 1)
        func rounded(_ offset: Int, to alignment: Int) -> Int { (offset + alignment - 1) & -alignment }
        let statesOffset = rounded(MemoryLayout<_StorageHeader>.stride, to: MemoryLayout<_SlotState>.alignment)
        let delegatesOffset = rounded(statesOffset + capacity * MemoryLayout<_SlotState>.stride, to: layout.alignment)
        let memory = UnsafeMutableRawPointer.allocate(
            byteCount: delegatesOffset + capacity * layout.stride,
            alignment: Swift.max(
                MemoryLayout<_StorageHeader>.alignment, MemoryLayout<_SlotState>.alignment, layout.alignment))
        let base = unsafe _Slot(
            state: (memory + statesOffset).bindMemory(to: _SlotState.self, capacity: capacity),
            delegate: memory + delegatesOffset)
        let header = unsafe memory.initializeMemory(
            as: _StorageHeader.self, repeating: _StorageHeader(base: base), count: 1)
        slots = unsafe _StorageHandle(
            header: header, ticket: tickets.take(for: header), base: base, layout: layout, capacity: capacity)
    }

    deinit {
        slots.releaseAll()
        unsafe UnsafeMutableRawPointer(slots.header).deallocate()
    }
}

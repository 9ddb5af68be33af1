import _MulticastShims

/// What a pass counts itself into: a storage's ``_Readers`` word, and the storage it stands for, in memory that
/// stays allocated while the core lives. A pass that counts itself into the ticket of a storage that a change has
/// just replaced, and freed, so touches memory that is still there; the ``_Gate`` then tells it to count itself
/// out. A freed storage's ticket is given to a later storage (see ``_Tickets``).
@frozen
@safe  // plain words: what makes a ticket's memory and its header's valid is the gate's protocol (see `_Gate`)
@usableFromInline
struct _Ticket {
    /// The ``_Readers`` word: the first field, so that its address is the ticket's.
    @usableFromInline
    var readers: Int

    /// The header of the storage the ticket stands for: written under the lock before the gate shows the ticket,
    /// read by a pass only once the gate has shown it the ticket.
    @usableFromInline
    var header: UnsafeMutablePointer<_StorageHeader>
}

/// The word through which a pass finds the current storage without the lock: the address of the storage's
/// ``_Ticket``, and a bit that closes the gate while a change may rewrite or release what passes read.
///
/// A pass enters with one read-modify-write (``_Core/enterPass()``): it loads the gate, counts itself into the
/// ticket the gate shows, and loads the gate again; if the gate still shows that ticket, open, the pass reads the
/// storage. Else it counts itself out, and enters under the lock, where the gate is open.
///
/// A change, under the lock, writes the gate before it asks whether passes read a storage: it closes the gate
/// before it asks of the current storage (``_Registry/closeGate()``), for a rewrite in place or a release of what
/// removed slots own, and it shows the new storage's ticket (``_Registry/replaceStorage(with:)``) before it asks
/// of the storage that one replaced. Each side writes, then loads what the other writes, in the total order of
/// sequentially consistent operations: either the change's load counts the pass, and the change waits for it, or
/// the pass's second load sees the gate changed, and the pass keeps out. The change opens the gate, with release
/// ordering, before it lets go of the lock (``_Core/change(_:)``), so that a pass that then enters sees what it
/// wrote.
///
/// A handle on the word, which the core allocates once and frees in its `deinit`: a value of one pointer, whose one
/// hazard is its lifetime, as ``_StorageHandle``'s.
@frozen
@safe
@usableFromInline
struct _Gate {
    @usableFromInline
    let word: UnsafeMutablePointer<Int>

    /// A gate that shows nothing yet, in memory of its own; the registry shows its first storage's ticket.
    init() {
        unsafe word = Self.onItsOwnCacheLine(0)
    }

    /// Frees the word, as the core goes.
    @unsafe
    func deallocate() {
        unsafe word.deallocate()
    }

    /// Set while a change may rewrite or release what passes read: passes enter under the lock meanwhile.
    @inlinable
    @inline(always)
    static var closedBit: Int { 1 }

    /// What the gate shows, as a pass first loads it: acquiring, so that the ticket it shows is seen as written.
    @inlinable
    @inline(always)
    func loadAcquiring() -> Int {
        unsafe _multicast_load_acquire(word)
    }

    /// What the gate shows, loaded as a pass loads it again after counting itself in: sequentially consistent.
    @inlinable
    @inline(always)
    func loadSequentiallyConsistent() -> Int {
        unsafe _multicast_load_seq_cst(word)
    }

    /// Shows the ticket of `storage`, open or closed, with a sequentially consistent store: what a change writes
    /// before it asks whether passes read a storage.
    @inlinable
    @inline(always)
    func show(_ storage: _StorageHandle, closed: Bool) {
        unsafe _multicast_store_seq_cst(word, Self.showing(storage, closed: closed))
    }

    /// Shows the ticket of `storage`, open, with release ordering: what a change writes as it ends, so that a pass
    /// that then enters sees what the change wrote.
    @inlinable
    @inline(always)
    func open(showing storage: _StorageHandle) {
        unsafe _multicast_store_release(word, Self.showing(storage, closed: false))
    }

    /// What the gate shows for the ticket of `storage`, open or closed.
    @inlinable
    @inline(always)
    static func showing(_ storage: _StorageHandle, closed: Bool) -> Int {
        unsafe Int(bitPattern: UInt(bitPattern: storage.ticket)) | (closed ? closedBit : 0)
    }

    /// `value` in memory of its own cache line (64 bytes on the processors Multicast runs on), so that passes
    /// counting themselves in and out of it do not slow the reads of whatever else would share the line.
    static func onItsOwnCacheLine<Value>(_ value: Value) -> UnsafeMutablePointer<Value> {
        precondition(MemoryLayout<Value>.size <= 64)
        let memory = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 64)
        return unsafe memory.initializeMemory(as: Value.self, repeating: value, count: 1)
    }
}

/// The tickets of a registry's storages: one for each storage, the current and those that passes still read, and
/// the tickets of freed storages, which later storages take. Every ticket stays allocated until the registry
/// goes: a pass may count itself into a freed storage's ticket, and out again, at any moment. Guarded by the
/// multicast's lock.
@safe  // it owns the tickets' memory, and frees it once, in `deallocateAll()`
struct _Tickets {
    /// Every ticket ever allocated.
    private(set) var all: [UnsafeMutablePointer<_Ticket>] = unsafe []

    /// The tickets that no storage has.
    private var free: [UnsafeMutablePointer<_Ticket>] = unsafe []

    init() {}

    /// A ticket for the storage whose header is `header`: a free one, or a new one. Its readers word may count
    /// passes that count themselves out at once: those let a pass's `leave` find the collect bit, and collect, as
    /// any reader's would.
    mutating func take(for header: UnsafeMutablePointer<_StorageHeader>) -> UnsafeMutablePointer<_Ticket> {
        if let ticket = unsafe free.popLast() {
            unsafe ticket.pointee.header = header
            return unsafe ticket
        }
        let ticket = unsafe _Gate.onItsOwnCacheLine(_Ticket(readers: 0, header: header))
        unsafe all.append(ticket)
        return unsafe ticket
    }

    /// Takes back the ticket of `storage`, which no pass reads and which is to be freed.
    mutating func giveBack(ticketOf storage: _StorageHandle) {
        unsafe free.append(storage.ticket)
    }

    /// Frees every ticket, as the registry goes.
    func deallocateAll() {
        for index in unsafe all.indices {
            unsafe all[index].deallocate()
        }
    }
}

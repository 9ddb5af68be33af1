/*
 * Multicast's concurrency protocol, for Spin: passes, removals, adds, deaths and storage swaps, as
 * Sources/_MulticastCore implements them. Each inline is named after the Swift function whose step it
 * models (`Registry_unregister_current` is the first part of `_Registry.unregister(at:)`). The bounds, the
 * assumptions and the mapping to the library are in Verification/CheckingThreadSafety.md;
 * Scripts/check-model.sh runs the checks.
 *
 * Steps. A statement, a `d_step` or an `atomic` block is one indivisible step, and Spin explores every order
 * of the steps of the threads. Each word that a thread reads or writes without the lock (a slot's key, a
 * ticket's readers word, the gate, an object's strong count) is touched in a step of its own, so every order of
 * those accesses is explored. Work under the lock on state that only the lock holder reaches (the index, the
 * pending list, slots past `count`, a storage that no pass reads) shares the step of a neighbouring access:
 * no other thread can see it in between, so running it earlier or later changes nothing that can be seen
 * (Lipton's reduction: a step holds at most one access that other threads race with).
 *
 * Memory ordering. Interleaved steps are sequentially consistent; the library's atomics are not (relaxed,
 * acquire, release), and arm64 shows the difference. So the model carries, as ghost state, what each thread
 * has synchronized with, as C11 defines it (see "Happens-before" below), and asserts at each free, rewrite and
 * release, at each check of a readers word and at each pass's start that the orderings the protocol needs
 * are there: the property `happens_before`.
 *
 * Properties are `check(property, condition)`: an assertion whose text, which pan quotes when it fails,
 * names the property. Each property is a hidden byte, 0 unless a run switches the property off.
 *
 * Variants. The verifier is compiled once; the environment variable MODEL_BUG plants one deliberate
 * protocol error (a BUG_... below), and MODEL_PROPERTY switches off every property but one, so that the
 * first error pan reports is that property's. With neither set, this is the protocol as the library has it.
 */

/* ---- Properties -------------------------------------------------------------------------------------------------- */

#define check(property, condition) assert((condition) || property)

/* A pass calls a delegate whose removal returned before the pass started. */
hidden byte new_pass_calls_removed;
/* A pass calls a delegate whose removal returned before the pass read its slot. */
hidden byte removed_before_turn_called;
/* A pass calls a delegate added after the pass started. */
hidden byte added_during_pass_called;
/* A pass calls delegates out of registration order, or one twice. */
hidden byte called_out_of_order;
/* A pass misses a registration that was registered when it started: it does not reach its slot. */
hidden byte registered_delegate_missed;
/* A registered delegate is skipped by a pass, unregistered or dropped, though it was neither removed nor dead. */
hidden byte live_delegate_dropped;
/* A pass calls an owned delegate while its owner is dead: the registration ended with the owner. */
hidden byte called_after_owner_died;
/* A storage is freed while a pass may read it, or a pass reads a freed storage. */
hidden byte storage_freed_while_read;
/* Slots of a storage are moved or rewritten while a pass may read it, or a pass reads a slot at or past its
   storage's count, where an add may write the next registration. */
hidden byte storage_rewritten_while_read;
/* What a slot owns is released while a pass may read the slot, or a pass reads a slot that owns nothing. */
hidden byte reference_released_while_read;
/* What a slot owns is released twice, or a strong or owned delegate loses more references than it had. */
hidden byte reference_released_twice;
/* Once every thread is done, an older storage, a removed strong or owned delegate or a slot's reference is still
   held. */
hidden byte never_released;
/* A pass that found registrations ended with their owners returns before they are unregistered: what an ended
   registration holds would wait for the next pass, or for good. */
hidden byte ended_registration_kept;
/* The index, the pending list or the vacancy counts disagree with the current storage's slots. */
hidden byte registry_and_index_disagree;
/* Once every thread is done, the current storage's collect bit is set though no pass reads it: each later pass
   that leaves it alone would take the lock for nothing. */
hidden byte collect_bit_left_set;
/* An ordering of C11 is missing: a storage is freed or rewritten, or what a slot owns released, though the end
   of a pass that entered the storage does not happen before; a check of a readers word may miss a pass whose
   fetch_add is not ordered before it; or a pass starts on a storage whose count or slots were written by a write
   that no release it acquired published. */
hidden byte happens_before;
/* Not a property of the library: a path needs more storages or capacity than the model has. Never off. */
hidden byte model_bound_exceeded;

/* ---- Bug variants ------------------------------------------------------------------------------------------------ */

#define BUG_REMOVE_SKIPS_CURRENT_MARK    1   /* unregister leaves the slot in the current storage unmarked */
#define BUG_REMOVE_SKIPS_OLDER_MARKS     2   /* unregister leaves the slots in older, still read storages unmarked */
#define BUG_PASS_READS_COUNT_EACH_TURN   3   /* a pass reads its storage's slot count again at each turn */
#define BUG_ADD_REUSES_VACANCY           4   /* add puts the registration in a removed slot of a full, unread storage */
#define BUG_PASS_SKIPS_VALIDATION        5   /* a pass reads the storage it counted into, not loading the gate again */
#define BUG_FREE_IGNORES_READERS         6   /* free frees the replaced storage whatever its readers */
#define BUG_COMPACT_IN_PLACE_WHILE_READ  7   /* rebuild compacts in place whether or not passes read the storage */
#define BUG_COLLECT_IGNORES_READERS      8   /* collect releases pending weak slots whatever the readers */
#define BUG_MOVE_KEEPS_SOURCE_OWNING     9   /* transfer moves a slot without marking the source released */
#define BUG_NO_COLLECT_ON_LEAVE         10   /* collectNowOrByLastReader never sets the collect bit */
#define BUG_NO_REINDEX                  11   /* a rebuild into a new storage keeps the old index */
#define BUG_RECLAIM_BY_POSITION         12   /* reclaim unregisters the slot at the marked position, found by no registration */
#define BUG_GARBAGE_RELEASED_UNDER_LOCK 13   /* the garbage is released while the lock is held */
#define BUG_COMPACT_KEEPS_COLLECT_BIT   14   /* compactInPlace leaves the readers word's collect bit set */
#define BUG_LEAVE_RELAXED               15   /* _Readers.leave's fetch_sub is relaxed, not release */
#define BUG_READERS_LOAD_RELAXED        16   /* the readers checks load the word relaxed, not acquire */
#define BUG_READERS_FETCH_OR_RELAXED    17   /* collectNowOrByLastReader's fetch_or is relaxed, not acquire */
#define BUG_ENTRY_RELAXED               18   /* a pass counts itself into a ticket with a relaxed fetch_add */
#define BUG_COUNT_STORED_RELAXED        19   /* add stores the new count relaxed, not release */
#define BUG_DROP_WHILE_READ             20   /* compact drops a released last slot while read */
#define BUG_DROP_IGNORES_OWNERSHIP      21   /* compact drops the last slot whatever it holds */
#define BUG_DROP_UNRELEASED             22   /* compact drops a removed, unreleased last slot */
#define BUG_PASS_CALLS_OWNED_AS_STRONG  23   /* a pass calls an owned slot as a strong one, not loading its owner */
#define BUG_RECLAIM_RELEASES_OWNED      24   /* reclaim releases an ended owned slot at once, whatever the readers */
#define BUG_OWNED_PENDS_AS_WEAK         25   /* unregister leaves a removed owned slot out of pendingStrong */
#define BUG_NO_RECLAIM_AT_PASS_END      26   /* a pass that marked ended registrations leaves them for later */
#define BUG_RECLAIM_AFTER_LEAVE         27   /* a pass counts itself out before it reads its marks under the lock */
#define BUG_CLOSE_AFTER_CHECK           28   /* a change's readers load is ordered before its gate's store */
#define BUG_RETIRE_BEFORE_SWAP          29   /* a rebuild asks the old storage's readers before the gate shows the new */
#define BUG_PUBLISH_BEFORE_FILL         30   /* a rebuild shows the new storage at the gate before it fills it */
#define BUG_COUNT_LOAD_RELAXED          31   /* a pass loads its storage's count relaxed, not acquire */
#define BUG_GATE_OPENED_RELAXED         32   /* a change opens the gate with a relaxed store, not release */

hidden byte bug;                  /* the planted bug, 0 for none */
#define planted(b) (bug == (b))
#define NO_VARIANT 255            /* a variant never planted, for a step that no variant weakens */

c_code {
/* Reads MODEL_BUG (a number above) and MODEL_PROPERTY (a property's name) from the environment. */
static void
model_select_variant(void)
{
    struct { const char *name; uchar *off; } properties[] = {
        { "new_pass_calls_removed", &new_pass_calls_removed },
        { "removed_before_turn_called", &removed_before_turn_called },
        { "added_during_pass_called", &added_during_pass_called },
        { "called_out_of_order", &called_out_of_order },
        { "registered_delegate_missed", &registered_delegate_missed },
        { "live_delegate_dropped", &live_delegate_dropped },
        { "called_after_owner_died", &called_after_owner_died },
        { "storage_freed_while_read", &storage_freed_while_read },
        { "storage_rewritten_while_read", &storage_rewritten_while_read },
        { "reference_released_while_read", &reference_released_while_read },
        { "reference_released_twice", &reference_released_twice },
        { "never_released", &never_released },
        { "ended_registration_kept", &ended_registration_kept },
        { "registry_and_index_disagree", &registry_and_index_disagree },
        { "collect_bit_left_set", &collect_bit_left_set },
        { "happens_before", &happens_before },
    };
    const char *planted = getenv("MODEL_BUG"), *only = getenv("MODEL_PROPERTY");
    int i, count = sizeof properties / sizeof properties[0], known = 0;
    bug = planted ? atoi(planted) : 0;
    if (!only || !*only) return;
    for (i = 0; i < count; i++) {
        *properties[i].off = strcmp(properties[i].name, only) != 0;
        known |= strcmp(properties[i].name, only) == 0;
    }
    if (!known && strcmp(only, "none") != 0) {
        printf("model: unknown MODEL_PROPERTY %s\n", only);
        exit(2);
    }
}
}

/* ---- Paths that the bounds must reach ---------------------------------------------------------------------------- */

/* Each is set, in a d_step (so that backtracking does not undo it), when a search goes down the path; pan
   prints which were reached when it exits. */
hidden byte path_growth, path_compaction_in_place, path_rebuild_copies_read_storage,
    path_rebuild_moves_unread_storage, path_storage_retired_while_read, path_replaced_storage_freed_at_once,
    path_removal_marks_older_storage, path_last_reader_collects, path_older_storage_freed_by_collect,
    path_collect_bit_set_after_last_reader_left, path_pending_slots_released, path_pending_slots_wait_for_readers,
    path_add_finds_storage_full, path_dead_delegate_reclaimed, path_nested_pass,
    path_pass_skips_removed, path_pass_skips_dead, path_remove_all, path_strong_delegate_released_after_pass,
    path_collect_bit_cleared_by_compaction, path_released_last_slot_dropped, path_slot_released_earlier_dropped,
    path_released_last_slot_kept_while_read, path_owned_delegate_called, path_pass_skips_ended_owned,
    path_ended_owned_reclaimed, path_owned_delegate_released_after_pass, path_owned_removed_by_owner,
    path_owned_removed_in_owner_deinit, path_reclaim_finds_moved_registration, path_pass_enters_through_gate,
    path_pass_finds_gate_closed, path_pass_turned_away_by_changed_gate, path_pass_turned_away_collects;
#define reached(path) path = 1

c_code {
static void
model_report_paths(void)
{
    struct { const char *name; uchar *reached; } paths[] = {
        { "growth", &path_growth },
        { "compaction_in_place", &path_compaction_in_place },
        { "rebuild_copies_read_storage", &path_rebuild_copies_read_storage },
        { "rebuild_moves_unread_storage", &path_rebuild_moves_unread_storage },
        { "storage_retired_while_read", &path_storage_retired_while_read },
        { "replaced_storage_freed_at_once", &path_replaced_storage_freed_at_once },
        { "removal_marks_older_storage", &path_removal_marks_older_storage },
        { "last_reader_collects", &path_last_reader_collects },
        { "older_storage_freed_by_collect", &path_older_storage_freed_by_collect },
        { "collect_bit_set_after_last_reader_left", &path_collect_bit_set_after_last_reader_left },
        { "pending_slots_released", &path_pending_slots_released },
        { "pending_slots_wait_for_readers", &path_pending_slots_wait_for_readers },
        { "add_finds_storage_full", &path_add_finds_storage_full },
        { "dead_delegate_reclaimed", &path_dead_delegate_reclaimed },
        { "nested_pass", &path_nested_pass },
        { "pass_skips_removed", &path_pass_skips_removed },
        { "pass_skips_dead", &path_pass_skips_dead },
        { "remove_all", &path_remove_all },
        { "strong_delegate_released_after_pass", &path_strong_delegate_released_after_pass },
        { "collect_bit_cleared_by_compaction", &path_collect_bit_cleared_by_compaction },
        { "released_last_slot_dropped", &path_released_last_slot_dropped },
        { "slot_released_earlier_dropped", &path_slot_released_earlier_dropped },
        { "released_last_slot_kept_while_read", &path_released_last_slot_kept_while_read },
        { "owned_delegate_called", &path_owned_delegate_called },
        { "pass_skips_ended_owned", &path_pass_skips_ended_owned },
        { "ended_owned_reclaimed", &path_ended_owned_reclaimed },
        { "owned_delegate_released_after_pass", &path_owned_delegate_released_after_pass },
        { "owned_removed_by_owner", &path_owned_removed_by_owner },
        { "owned_removed_in_owner_deinit", &path_owned_removed_in_owner_deinit },
        { "reclaim_finds_moved_registration", &path_reclaim_finds_moved_registration },
        { "pass_enters_through_gate", &path_pass_enters_through_gate },
        { "pass_finds_gate_closed", &path_pass_finds_gate_closed },
        { "pass_turned_away_by_changed_gate", &path_pass_turned_away_by_changed_gate },
        { "pass_turned_away_collects", &path_pass_turned_away_collects },
    };
    int i;
    for (i = 0; i < (int)(sizeof paths / sizeof paths[0]); i++)
        printf("path %s: %s\n", paths[i].name, *paths[i].reached ? "reached" : "NOT reached");
}
}

/* ---- Bounds ------------------------------------------------------------------------------------------------------ */

#define NS            5   /* storages: the first, and each that a rebuild or removeAll allocates */
#define MAXCAP        5   /* the largest capacity a storage is given */
#define NOBJ          4   /* delegates */
#define NREFS         5   /* counted objects: the delegates and d3's owner */
#define NONE          255

/* The two constants of the rebuild policy, scaled down so that three or four delegates reach every rebuild. */
#define SPARSE_MIN    1   /* compact rebuilds from this many vacancies on (16 in the library) */
#define MIN_CAPACITY  2   /* capacityOfRebuilt is at least this (8 in the library) */

#define capacityOfRebuilt(live) ((live) + (live) * 3 / 4 > MIN_CAPACITY -> (live) + (live) * 3 / 4 : MIN_CAPACITY)

/* The delegates: one of each holding. */
#define D0  0   /* strong; removed by the remover, which holds a reference to it until then */
#define D1  1   /* weak, alive throughout; removed by the remover, or by its removeAll */
#define D2  2   /* weak; may die at any moment */
#define D3  3   /* owned by O3: added by the adder, which holds d3 during its add and O3 until some moment after it,
                   or for good; held by its slots' counts; the newest delegate, which the remover may remove by
                   its owner once added */
#define O3  4   /* d3's owner: no delegate, only an object whose weak reference decides whether d3 may be called */

/* The object a slot's weak reference points to, which decides whether the slot may be called: a weak
   delegate is its own owner. (Read only for keys that end with their owner.) */
#define ownerOf(o)  ((o) == D3 -> O3 : (o))

/* Threads, as the lock records its owner; 0 is a free lock. Both passes of the caller run on its thread. */
#define CALLER   1
#define REMOVER  2
#define ADDER    3

/* ---- _SlotKey: registration << 4 | strong bit 1 | released bit 2 | weak-owner bit 4 | ended bit 8; removed is the
   sign bit. (The library's pinned-owner bit is the weak-owner bit here: the model treats the two alike.) ------- */

#define STRONG_BIT       1   /* the slot owns a count on the delegate */
#define RELEASED_BIT     2
#define WEAK_OWNER_BIT   4   /* the slot's weak reference to its owner decides whether it may be called */
#define ENDED_BIT        8   /* a pass found the registration ended, for the registry to unregister */
#define REMOVED_BIT      (-32768)   /* the sign bit of a 16-bit key, as Int64.min is the library's */

/* _Holding: the bits that a key is made with */
#define WEAK    WEAK_OWNER_BIT
#define STRONG  STRONG_BIT
#define OWNED   (STRONG_BIT | WEAK_OWNER_BIT)

#define makeKey(registration, holding)  ((registration) * 16 + (holding))
#define isCallable(key)       ((key) > 0)
#define isStrong(key)         (((key) & STRONG_BIT) != 0)
#define endsWithOwner(key)    (((key) & WEAK_OWNER_BIT) != 0)
#define isOwned(key)          (((key) & OWNED) == OWNED)
#define ownsReferences(key)   (((key) & RELEASED_BIT) == 0)
#define isEnded(key)          (((key) & ENDED_BIT) != 0)
#define registrationOf(key)   (((key) & 32767) / 16)
#define removedKey(key)       ((key) | REMOVED_BIT)
#define releasedKey(key)      ((key) | RELEASED_BIT | REMOVED_BIT)

/* ---- Shared memory ----------------------------------------------------------------------------------------------- */

#define UNUSED     0
#define ALLOCATED  1
#define FREED      2

/* _Storage: the header {count, readers} and the slots. */
typedef Storage {
    byte state;
    byte capacity;
    byte count;
    byte readers;         /* _Readers: the passes counted in ... */
    bit collect;          /* ... and the collect bit, of one word */
    byte passes;          /* ghost: the passes that may read the storage, counted apart from the readers word */
    short key[MAXCAP];    /* _Slot.key, loaded and stored atomically */
    byte object[MAXCAP];  /* the object whose delegate and weak reference the slot holds */
    bit owns[MAXCAP];     /* ghost: the slot owns its references (set by occupy and transfer, cleared by release) */
};
Storage st[NS];
byte allocated;           /* storages allocated so far; never reused, so a freed one stays FREED */

/* _Registry */
byte storage;             /* the current storage */
bit retired[NS];          /* older storages that passes still read */
byte index[NOBJ];         /* _SlotIndex, as a map: object -> its position in the current storage, or NONE */
bit pending[MAXCAP];      /* positions of removed slots of the current storage that still own references */
byte pendingStrong;
byte vacancies;
byte lastRegistration;

/* _Lock: the thread that holds the mutex, 0 when it is free */
byte lockOwner;

/* _Gate: the storage whose ticket it shows (a storage and its ticket are one here: storages are never reused),
   and whether a change closed it. The registry writes it under the lock; passes load it without. */
byte gate;
bit gateClosed;

/* Strong references to each object: its holder's, the slots' counts on a strong or owned delegate, the
   garbage's, and a pass's keeper of d3's owner. A weak delegate, or d3's owner, is alive while this is not 0; a
   weak reference does not count. */
byte refs[NREFS];
bit deinitialized;        /* ghost: d0's deinit ran */

/* Ghosts, one bit per registration: registered now; removal returned. */
byte registeredSet;
byte removalReturnedSet;
#define bitOf(r)  (1 << (r))

bit nestedRunning;        /* the caller's nested pass runs: the outer pass is inside a delegate call */

/* Scratch variables used within one step only: hidden, so they take no room in a state. A step sets each
   before it reads it. */
hidden byte found, o, c, pos, target, lo, hi, mid, new, a1, a2, a3;
hidden short k;
hidden byte returned;

/* ---- Happens-before: the orderings of C11, as ghost state -------------------------------------------------------- */

/* Each thread has a view: events that happen before its current step, as bits. The atomics and the mutex hand
   views on as C11 defines synchronization:

   - a pass's end (its reads done) joins its thread's view, by program order;
   - a release, the fetch_sub of _Readers.leave, adds the thread's view to what the storage's readers word
     publishes; each later read-modify-write of the word (a fetch_add, fetch_sub, fetch_or or fetch_and, whatever
     its ordering) continues that release sequence. The model ends it where the registry clears the collect bit
     (a fetch_and): the word then publishes nothing, which can only make the checks stricter;
   - an acquire of the word, a load or a fetch_or, joins what the word publishes into the thread's view: it reads
     the value of one of those read-modify-writes, so it synchronizes with every release before it;
   - an unlock publishes the thread's view in the mutex, and a lock joins it in: the mutex's total order;
   - a store of the gate, or an add's store of a storage's count, publishes what was written of that storage's
     count and slots before it (hbWritesPending, hbCountOnly): a pass that enters without the lock acquires it
     by its loads of the gate and of the count.

   A pass's fetch_add is checked by each check of a readers word, which the registry makes under the lock. Made
   under the lock, it happens before every later critical section, by the unlock that ends its own; made without
   it, it is sequentially consistent, in one total order with the registry's store of the gate and load of the
   word (see Core_enterPass). Either way it needs no bit; the variant's relaxed one has a bit until its thread's
   next unlock publishes it, and the bit travels in views as the others do.

   A view is a short: bits 0 to 4 are the passes' ends (bits 2 and 3 unused), bits 5 to 9 their fetch_adds. Each
   pass enters one storage once. No check asks about a pass again once
   its storage is freed, or once every thread still running has seen its end (views only grow, but for these two
   cases); its bits are then cleared everywhere, as are bits of the mutex and words that every running view holds
   already, so that states which differ only in what no check can tell are one. */
#define OUTER_PASS    1   /* the caller's pass */
#define NESTED_PASS   2   /* the pass that a delegate of the outer pass starts, on the caller's thread */
#define ADDER_SCAN   16   /* the search for ended registrations before the adder's second try */
#define CALLER_PASSES 3
#define ALL_PASSES   19
#define passesOf(t)      ((t) == CALLER -> CALLER_PASSES : ((t) == ADDER -> ADDER_SCAN : 0))
#define entryOf(passes)  ((passes) << 5)          /* the bits of their fetch_adds */
#define EVERYTHING    1023                         /* what a thread that joined every other one has seen */

short hbView[4];          /* each thread's view, by its number; 0 is init's */
short hbLock;             /* what the mutex publishes: its last unlock's view */
short hbReaders[NS];      /* what each storage's readers word publishes: the releases of its release sequence */
byte hbEntered[NS];       /* the passes that entered each storage */
byte hbUnpublished;       /* passes whose fetch_add is relaxed (a variant), until their thread's next unlock */
bit hbWritesPending[NS];  /* the storage's count or slots were written since the last release that publishes them:
                             a store of its count, or of the gate showing it */
bit hbCountOnly[NS];      /* the last such release was a store of the count: a pass acquires it by loading the count */
byte hbRunning = 14;      /* the threads that have not returned, as bits: CALLER 2, REMOVER 4, ADDER 8 */
hidden byte hb_i;
hidden short hb_m;

/* The checks, for the running thread (`thread`): every pass that entered storage s has ended, and its end
   happens before this step; */
#define passesHappenBefore(s)  ((hbEntered[s] & ~hbView[thread]) == 0)
/* (with the lock held) the fetch_add of every pass that entered s is ordered before this step: sequentially
   consistent, or its bit in this view, so a load of the word reads a value that counts it (coherence); */
#define entriesHappenBefore(s) ((entryOf(hbEntered[s] & hbUnpublished) & ~hbView[thread]) == 0)
/* (a pass entering s without the lock, having acquired the gate, and the count if `countAcquired`) every write of
   s's count and slots was published by a release that the pass acquired. */
#define writesPublishedTo(s, countAcquired)  (!hbWritesPending[s] && (!hbCountOnly[s] || (countAcquired)))

/* Clears the bits `hb_m` in every view and in what the mutex and the words publish. */
inline hb_clear() {
    hb_i = 0;
    do
    :: hb_i < 4 -> hbView[hb_i] = hbView[hb_i] & ~hb_m; hb_i++
    :: else -> break
    od;
    hb_i = 0;
    do
    :: hb_i < NS -> hbReaders[hb_i] = hbReaders[hb_i] & ~hb_m; hb_i++
    :: else -> break
    od;
    hbLock = hbLock & ~hb_m
}

/* Clears what no check can tell: the passes whose end every running thread has seen, and the bits of the mutex
   and of the words that every running view holds. */
inline hb_canonical() {
    hb_m = EVERYTHING;
    hb_i = 1;
    do
    :: hb_i < 4 ->
        if
        :: hbRunning & (1 << hb_i) -> hb_m = hb_m & hbView[hb_i]
        :: else
        fi;
        hb_i++
    :: else -> break
    od;
    hbLock = hbLock & ~hb_m;
    hb_i = 0;
    do
    :: hb_i < NS -> hbReaders[hb_i] = hbReaders[hb_i] & ~hb_m; hb_i++
    :: else -> break
    od;
    hb_m = hb_m & ALL_PASSES;
    if
    :: hb_m != 0 ->
        hb_i = 0;
        do
        :: hb_i < NS -> hbEntered[hb_i] = hbEntered[hb_i] & ~hb_m; hb_i++
        :: else -> break
        od;
        hb_m = hb_m | entryOf(hb_m);
        hbUnpublished = hbUnpublished & ~hb_m;
        hb_clear()
    :: else
    fi
}

/* An acquire: the view takes in what was published. */
inline hb_acquire(published) {
    hbView[thread] = hbView[thread] | (published);
    hb_canonical()
}

/* The thread wrote what a pass that enters storage ws reads (its count or its slots): the write waits for a release
   that publishes it to passes, which enter without the lock (see Gate_publish, Storage_publishCount). */
inline hb_wrote(ws) {
    hbWritesPending[ws] = 1
}

/* A store of ws's count, with release ordering unless `relaxed` is the planted bug: it publishes the writes of
   ws before it to a pass that loads the count with acquire ordering. */
inline Storage_publishCount(ws, relaxed) {
    if
    :: !planted(relaxed) && hbWritesPending[ws] -> hbWritesPending[ws] = 0; hbCountOnly[ws] = 1
    :: else
    fi
}

/* A store of the gate showing ws, sequentially consistent or with release ordering, unless `relaxed` is the planted
   bug: it publishes every write of ws before it, the count's too, to a pass that loads the gate. */
inline Gate_publish(ws, relaxed) {
    if
    :: !planted(relaxed) -> hbWritesPending[ws] = 0; hbCountOnly[ws] = 0
    :: else
    fi
}

/* The thread unlocks: a relaxed fetch_add of its passes (a variant) is published in the mutex, and needs no bit
   any more. */
inline hb_publish() {
    hb_m = entryOf(hbUnpublished & passesOf(thread));
    hbUnpublished = hbUnpublished & ~passesOf(thread);
    hb_clear()
}

/* Storage fs is freed: no check asks about the passes that entered it again. */
inline hb_forget(fs) {
    hb_m = hbEntered[fs] | entryOf(hbEntered[fs]);
    hbUnpublished = hbUnpublished & ~hbEntered[fs];
    hb_clear();
    hbEntered[fs] = 0;
    hbWritesPending[fs] = 0;
    hbCountOnly[fs] = 0;
    hbReaders[fs] = 0
}

/* The thread returns: it checks nothing more. */
inline hb_return() {
    hbView[thread] = 0;
    hbRunning = hbRunning & ~(1 << thread);
    hb_canonical()
}

/* The variables of a thread that changes the registry; each is set back to 0 after use, so that it does not
   multiply states. */
#define REGISTRY_VARIABLES \
    byte bugHere = bug;    /* the planted bug, in a local for tests outside a d_step */ \
    byte p, r, t, old, made, capacity;  /* made: a new storage, from one step to the next */ \
    byte returnedRegistrations;  /* registrations whose removal returns when the lock is released */ \
    byte decided; \
    bit unread, deinit, isRead;  /* isRead: whether a rebuild copies, from one step to the next */ \
    byte garbageStorages;  /* _Garbage.storages, one bit per storage */ \
    bit returning;         /* the thread returns once this garbage is released (the adder's last call) */ \
    byte garbageStrong;    /* _Garbage.delegates: counts on d0 ... */ \
    byte garbageOwned      /* ... and on d3 */

/* The variables of a thread that makes passes. */
#define PASS_VARIABLES \
    byte me;               /* the pass under way: OUTER_PASS ... ADDER_SCAN */ \
    byte s, end, i; \
    bit entered;           /* the pass entered through the gate, without the lock */ \
    byte startRegistration, gone; \
    byte startSet, seenSet; /* ghost: the registrations registered when the pass started; those whose slot it read */ \
    byte firstEnded = NONE; /* the position of the first slot the pass marked ended, or NONE */ \
    byte endedSet;         /* ghost: the registrations the pass found ended, one bit each */ \
    byte ps;               /* the storage the pass read, kept for its end */ \
    bit last

/* ---- _Lock.lock, unlock ------------------------------------------------------------------------------------------ */

/* The first statement of the step that takes the lock; the thread's view takes in the mutex's. */
inline Lock_acquire() {
    lockOwner == 0 -> lockOwner = thread;
    hb_acquire(hbLock)
}

/* The unlock: the mutex publishes the thread's view. */
inline Lock_unlock() {
    hbLock = hbLock | hbView[thread];
    lockOwner = 0;
    hb_publish()
}

/* Leaves the critical region: the registry must agree with itself whenever the lock is free. */
inline Lock_release() {
    Registry_agrees();
    removalReturnedSet = removalReturnedSet | returnedRegistrations;
    returnedRegistrations = 0;
    Lock_unlock()
}

/* The registry's invariant: the index, `pending`, `pendingStrong` and `vacancies` describe the current
   storage's slots, which are in registration order, and its callable slots are the registered registrations. */
inline Registry_agrees() {
    check(registry_and_index_disagree, gate == storage && !gateClosed);
    a1 = 0; a2 = 0; a3 = 0;   /* a2: callable slots; a3: pending strong slots */
    do
    :: a1 < st[storage].count ->
        if
        :: isCallable(st[storage].key[a1]) ->
            a2++;
            check(registry_and_index_disagree,
                index[st[storage].object[a1]] == a1 && !pending[a1] &&
                (registeredSet & bitOf(registrationOf(st[storage].key[a1]))) != 0)
        :: else ->
            check(registry_and_index_disagree, pending[a1] == ownsReferences(st[storage].key[a1]));
            if
            :: pending[a1] && isStrong(st[storage].key[a1]) -> a3++
            :: else
            fi
        fi;
        check(registry_and_index_disagree,
            a1 == 0 || registrationOf(st[storage].key[a1 - 1]) < registrationOf(st[storage].key[a1]));
        a1++
    :: else -> break
    od;
    check(registry_and_index_disagree, vacancies == st[storage].count - a2 && pendingStrong == a3);
    do
    :: a1 < MAXCAP -> check(registry_and_index_disagree, !pending[a1]); a1++
    :: else -> break
    od;
    a1 = 0;
    do
    :: a1 < NOBJ ->
        check(registry_and_index_disagree, index[a1] == NONE ||
            (index[a1] < st[storage].count && st[storage].object[index[a1]] == a1 &&
             isCallable(st[storage].key[index[a1]])));
        a1++
    :: else -> break
    od;
    a1 = 0; a3 = 0;
    do   /* as many registrations as callable slots, and each of those is registered: the same ones */
    :: a1 < 8 ->
        if
        :: registeredSet & bitOf(a1) -> a3++
        :: else
        fi;
        a1++
    :: else -> break
    od;
    check(registry_and_index_disagree, a3 == a2)
}

/* ---- _Readers ---------------------------------------------------------------------------------------------------- */

/* The ghost of a pass that counted itself into es and reads it: counted among the passes that entered the
   storage. Its fetch_add publishes nothing (a read-modify-write, it continues the word's release sequence); made
   without the lock, it is sequentially consistent, so that a later load of the word in the total order counts it;
   the variant's relaxed one has a bit until its thread's next unlock. */
inline Pass_entered(es) {
    st[es].passes++;
    hbEntered[es] = hbEntered[es] | me;
    if
    :: planted(BUG_ENTRY_RELAXED) && lockOwner != thread ->
        hbUnpublished = hbUnpublished | me; hbView[thread] = hbView[thread] | entryOf(me)
    :: else
    fi
}

/* The ghost of each load or fetch_or of a readers word, with the lock held: the fetch_add of every pass that
   entered the storage happens before it, and unless `relaxed` is the planted bug it is an acquire. */
inline Readers_acquire(rs, relaxed) {
    check(happens_before, entriesHappenBefore(rs));
    if
    :: !planted(relaxed) -> hb_acquire(hbReaders[rs])
    :: else
    fi
}

/* isUnread: load(acquire) of the word; the collect bit does not count. */
inline Readers_isUnread(rs) {
    Readers_acquire(rs, BUG_READERS_LOAD_RELAXED);
    unread = (st[rs].readers == 0)
}

/* collectNowOrByLastReader takes two steps. This is the first, the load(acquire): */
inline Readers_collectNowOrByLastReader_load(rs) {
    Readers_acquire(rs, BUG_READERS_LOAD_RELAXED);
    unread = (st[rs].readers == 0 && !st[rs].collect)
}

/* ... and this begins the second: if a reader was counted, fetch_or(acquire) of the collect bit; if the count
   was 0 by then, the last reader left meanwhile, and the word is stored back to 0 in the same step, as no
   thread can touch it then (no reader is left, and none can enter while the lock is held). */
inline Readers_collectNowOrByLastReader_setBit(rs) {
    if
    :: !unread ->
        Readers_acquire(rs, BUG_READERS_FETCH_OR_RELAXED);
        if
        :: !planted(BUG_NO_COLLECT_ON_LEAVE) -> st[rs].collect = 1
        :: else
        fi;
        if
        :: st[rs].readers == 0 ->   /* the store of 0 (relaxed) ends the release sequence */
            st[rs].collect = 0;
            hbReaders[rs] = 0;
            unread = 1;
            reached(path_collect_bit_set_after_last_reader_left)
        :: else
        fi
    :: else
    fi
}

/* ---- _Slot ------------------------------------------------------------------------------------------------------- */

/* release: destroys what the slot owns and marks it released; `returned` is 1 + the delegate whose count the
   slot owned (a strong or owned one), which the caller releases outside the lock, or 0. */
inline Slot_release(rs, rp) {
    k = st[rs].key[rp];
    returned = 0;
    if
    :: ownsReferences(k) ->
        check(reference_released_while_read, st[rs].passes == 0);
        check(happens_before, passesHappenBefore(rs));
        check(reference_released_twice, st[rs].owns[rp]);
        st[rs].owns[rp] = 0;
        st[rs].key[rp] = releasedKey(k);
        if
        :: isStrong(k) -> returned = 1 + st[rs].object[rp]
        :: else
        fi
    :: else
    fi
}

/* _Garbage.append: the count that Slot_release returned, released once the lock is let go of. */
inline Garbage_append() {
    if
    :: returned == 1 + D0 -> garbageStrong++
    :: returned == 1 + D3 -> garbageOwned++
    :: else
    fi
}

/* transfer: copies the registration if passes may read the source (the target takes references of its own),
   else moves it and marks the source released. Reads `isRead`. */
inline Slot_transfer(fs, fp, ts, tp) {
    k = st[fs].key[fp];
    st[ts].key[tp] = k;
    st[ts].object[tp] = st[fs].object[fp];
    hb_wrote(ts);
    if
    :: isRead ->
        reached(path_rebuild_copies_read_storage);
        st[ts].owns[tp] = 1;
        if
        :: isStrong(k) -> refs[st[fs].object[fp]]++
        :: else
        fi
    :: else ->
        reached(path_rebuild_moves_unread_storage);
        check(storage_rewritten_while_read, st[fs].passes == 0);
        check(happens_before, passesHappenBefore(fs));
        hb_wrote(fs);
        st[ts].owns[tp] = st[fs].owns[fp];
        st[fs].owns[fp] = 0;
        if
        :: !planted(BUG_MOVE_KEEPS_SOURCE_OWNING) -> st[fs].key[fp] = releasedKey(k)
        :: else
        fi
    fi
}

/* ---- _Storage ---------------------------------------------------------------------------------------------------- */

inline Storage_make(minimumCapacity) {
    check(model_bound_exceeded, allocated < NS && minimumCapacity <= MAXCAP);
    new = allocated;
    allocated++;
    st[new].state = ALLOCATED;
    st[new].capacity = minimumCapacity;
    hb_wrote(new)   /* its header, and the pointer to it that the caller stores */
}

/* position(ofRegistration:): binary search of the slots, which are in registration order. Sets `found`. */
inline Storage_position(ps, registration) {
    lo = 0; hi = st[ps].count; found = NONE;
    do
    :: lo < hi ->
        mid = (lo + hi) / 2;
        if
        :: registrationOf(st[ps].key[mid]) == registration -> found = mid; lo = hi
        :: registrationOf(st[ps].key[mid]) < registration -> lo = mid + 1
        :: registrationOf(st[ps].key[mid]) > registration -> hi = mid
        fi
    :: else -> break
    od
}

/* releaseAll, called by _Garbage.release outside the lock: each count on a delegate that a slot returns is
   released at once; `deinit` says that was d0's last reference (its deinit runs in the next step). */
inline Storage_releaseAll(rs) {
    pos = 0;
    do
    :: pos < st[rs].count ->
        Slot_release(rs, pos);
        if
        :: returned ->
            check(reference_released_twice, refs[returned - 1] > 0);
            refs[returned - 1]--;
            if
            :: returned == 1 + D0 -> deinit = (refs[D0] == 0)
            :: else
            fi
        :: else
        fi;
        pos++
    :: else -> break
    od;
    st[rs].count = 0
}

/* ---- _Registry --------------------------------------------------------------------------------------------------- */

/* find: the index's entry for the registration, checked against its slot: callable, and either strong or with
   its owner alive. Sets `p`. (The library files an owned registration under its owner's address, and checks the
   kind of registration it finds there; the model's index has one entry per delegate, and d3's stands for its
   owner's.) */
inline Registry_find(fo) {
    p = index[fo];
    if
    :: p != NONE ->
        check(registry_and_index_disagree, p < st[storage].count && st[storage].object[p] == fo);
        if
        :: isCallable(st[storage].key[p]) && (!endsWithOwner(st[storage].key[p]) || refs[ownerOf(fo)] > 0)
        :: else -> p = NONE
        fi
    :: else
    fi
}

/* enterPass, under the lock, where the gate is open: counts the pass in (_Readers.enter: fetch_add) and notes the
   slot count. What the pass reads from here on was written before the last unlock, which the lock acquired. */
inline Registry_enterPass() {
    s = storage;
    st[s].readers++;
    Pass_entered(s);
    end = st[s].count
}

/* The ghosts of what a pass may call, noted as it starts (`track`, for a call's pass): the newest registration,
   the removals that have returned, and the registrations registered. */
inline Pass_started(track) {
    if
    :: track ->
        startRegistration = lastRegistration;
        gone = removalReturnedSet;
        startSet = registeredSet
    :: else
    fi
}

/* _Core.enterPass: the gate's first load (acquire); if it is open, the fetch_add (sequentially consistent) into the
   ticket it shows; the gate's second load (sequentially consistent). If the gate still shows that ticket, open, the
   pass reads the storage: what it reads, its count and its slots, was published by the stores of the gate and of
   the count that its loads acquired. Else the pass counts itself out again, and collects if it was the last
   reader, and enters under the lock. (Storages are never reused here, so a ticket the gate no longer shows is its
   storage's, freed or not: a pass that counts itself into it touches memory that is still there, as the library's
   tickets are.) */
inline Core_enterPass(track) {
    d_step {
        ps = gate;
        entered = !gateClosed;
        if
        :: !entered -> reached(path_pass_finds_gate_closed)
        :: else
        fi
    }
    if
    :: entered ->
        st[ps].readers++;
        d_step {
            if
            :: gate == ps && !gateClosed || planted(BUG_PASS_SKIPS_VALIDATION) ->
                s = ps;
                check(storage_freed_while_read, st[s].state == ALLOCATED);
                check(happens_before, writesPublishedTo(s, !planted(BUG_COUNT_LOAD_RELAXED)));
                Pass_entered(s);
                end = st[s].count;
                Pass_started(track);
                reached(path_pass_enters_through_gate)
            :: else ->   /* counted out again: its fetch_sub */
                entered = 0;
                last = (st[ps].collect && st[ps].readers == 1);
                st[ps].readers--;
                reached(path_pass_turned_away_by_changed_gate);
                if
                :: last -> reached(path_pass_turned_away_collects)
                :: else
                fi
            fi;
            ps = 0
        }
        Core_passEnded()
    :: else
    fi;
    if
    :: !entered -> d_step { Lock_acquire(); Registry_enterPass(); Pass_started(track); Lock_unlock() }
    :: else -> entered = 0
    fi
}

/* A key's store (relaxed): a pass that has synchronized with the removal reads it (coherence); one that has not may
   read the key before it, and call the delegate, which the removal's release waits for (see collect). */
inline Registry_markRemoved(ms, mp) {
    if
    :: isCallable(st[ms].key[mp]) -> st[ms].key[mp] = removedKey(st[ms].key[mp])
    :: else
    fi
}

/* Moves `t` on to the next retired storage, or to NS. */
inline Registry_nextRetired() {
    do
    :: t < NS && !retired[t] -> t++
    :: else -> break
    od;
    skip   /* a d_step may not end with a loop, whose `break` would leave it */
}

/* unregister(at:), first part, within the caller's step: marks the slot in the current storage, and records
   it as pending and vacant. Sets `r`, the registration, and `t`, the first retired storage. */
inline Registry_unregister_current(up) {
    r = registrationOf(st[storage].key[up]);
    registeredSet = registeredSet & ~bitOf(r);
    if
    :: !planted(BUG_REMOVE_SKIPS_CURRENT_MARK) -> Registry_markRemoved(storage, up)
    :: else
    fi;
    pending[up] = 1;
    if
    :: isStrong(st[storage].key[up]) && !(planted(BUG_OWNED_PENDS_AS_WEAK) && isOwned(st[storage].key[up])) ->
        pendingStrong++
    :: else
    fi;
    vacancies++;
    t = 0;
    Registry_nextRetired()
}

/* unregister(at:), second part: marks the registration's slot in each older storage that passes still read,
   one storage per step. */
inline Registry_unregister_older() {
    do
    :: t < NS ->
        d_step {
            Storage_position(t, r);
            if
            :: found != NONE && !planted(BUG_REMOVE_SKIPS_OLDER_MARKS) ->
                if
                :: isCallable(st[t].key[found]) -> reached(path_removal_marks_older_storage)
                :: else
                fi;
                Registry_markRemoved(t, found)
            :: else
            fi;
            t++;
            Registry_nextRetired()
        }
    :: else -> break
    od;
    t = 0
}

inline Registry_resetVacancies() {
    a1 = 0;
    do
    :: a1 < MAXCAP -> pending[a1] = 0; a1++
    :: else -> break
    od;
    pendingStrong = 0;
    vacancies = 0
}

/* reindex: files each callable slot of the current storage in a new index. */
inline Registry_reindex() {
    a1 = 0;
    do
    :: a1 < NOBJ -> index[a1] = NONE; a1++
    :: else -> break
    od;
    a1 = 0;
    do
    :: a1 < st[storage].count ->
        if
        :: isCallable(st[storage].key[a1]) -> index[st[storage].object[a1]] = a1
        :: else
        fi;
        a1++
    :: else -> break
    od
}

/* isCurrentUnread: whether no pass reads the current storage; if so, the gate is closed, and none can enter it until
   the change ends. A first load of the readers word; if it counts none, the gate's store (sequentially consistent)
   and a second load, in one step: a pass that counts itself in between the two counts in the second load as one
   counted in before the store does, and its own second load of the gate, after the store, finds it closed. The
   variant's store and load are not both sequentially consistent, so the load may be ordered before the store (as
   x86-64 orders a plain store and a later load): it closes the gate after it checks. Sets `unread`. */
inline Registry_isCurrentUnread() {
    d_step { Readers_isUnread(storage) }
    if
    :: unread && !planted(BUG_CLOSE_AFTER_CHECK) -> d_step { gateClosed = 1; Readers_isUnread(storage) }
    :: unread && planted(BUG_CLOSE_AFTER_CHECK) -> d_step { Readers_isUnread(storage) }; gateClosed = 1
    :: else
    fi
}

/* compactInPlace: drops the removed slots of the current storage, which no pass reads, releasing what they own
   and moving the others down in order; then stores its readers word back to 0 (a relaxed store), which clears
   a collect bit that the last reader left as it went: this compaction does the work that the bit asked that
   reader to, and no reader is counted in the word, or can enter while the lock is held. */
inline Registry_compactInPlace() {
    reached(path_compaction_in_place);
    check(storage_rewritten_while_read, st[storage].passes == 0);
    check(happens_before, passesHappenBefore(storage));
    hb_wrote(storage);
    pos = 0; target = 0;
    do
    :: pos < st[storage].count ->
        if
        :: isCallable(st[storage].key[pos]) ->
            if
            :: target != pos ->
                st[storage].key[target] = st[storage].key[pos];
                st[storage].object[target] = st[storage].object[pos];
                st[storage].owns[target] = st[storage].owns[pos];
                st[storage].owns[pos] = 0
            :: else
            fi;
            target++
        :: else ->
            Slot_release(storage, pos);
            Garbage_append()
        fi;
        pos++
    :: else -> break
    od;
    st[storage].count = target;
    Registry_resetVacancies();
    Registry_reindex();
    if
    :: st[storage].collect -> reached(path_collect_bit_cleared_by_compaction)
    :: else
    fi;
    if
    :: !planted(BUG_COMPACT_KEEPS_COLLECT_BIT) -> st[storage].collect = 0; hbReaders[storage] = 0
    :: else
    fi
}

/* free: frees the replaced storage `old` if no pass reads it, else keeps it until its last reader leaves.
   Its first step is the load of collectNowOrByLastReader; this is its second, which begins with fetch_or
   and may go on with work private to the lock holder. */
inline Registry_free_decide() {
    Readers_collectNowOrByLastReader_setBit(old);
    if
    :: planted(BUG_FREE_IGNORES_READERS) -> unread = 1
    :: else
    fi;
    if
    :: unread -> garbageStorages = garbageStorages | (1 << old); reached(path_replaced_storage_freed_at_once)
    :: else -> retired[old] = 1; reached(path_storage_retired_while_read)
    fi;
    unread = 0
}

/* rebuild(capacity:): compacts in place if no pass reads the storage (the gate then closed) and it is the right
   size; else copies or moves the callable slots into a new storage, then shows it at the gate (a sequentially
   consistent store, which publishes its slots and count) and makes it current, and then frees the old one (see
   free), whose readers it asks about only once passes can no longer enter it. */
inline Registry_rebuild() {
    Registry_isCurrentUnread();
    d_step {
        old = storage;
        isRead = !unread;
        unread = 0;
        if
        :: (!isRead || planted(BUG_COMPACT_IN_PLACE_WHILE_READ)) &&
           capacity <= st[old].capacity && st[old].capacity <= capacity * 2 ->
            Registry_compactInPlace();
            old = NONE;   /* compacted in place: nothing to free */
            isRead = 0
        :: else ->
            Storage_make(capacity);
            made = new;
            if
            :: capacity > st[old].capacity -> reached(path_growth)
            :: else
            fi
        fi;
        capacity = 0
    }
    if
    :: old != NONE ->
        if
        :: planted(BUG_PUBLISH_BEFORE_FILL) -> gate = made   /* shown before it is filled */
        :: else
        fi;
        d_step {
            pos = 0; target = 0;
            do
            :: pos < st[old].count ->
                if
                :: isCallable(st[old].key[pos]) -> Slot_transfer(old, pos, made, target); target++
                :: else
                fi;
                pos++
            :: else -> break
            od;
            st[made].count = target;
            if
            :: planted(BUG_RETIRE_BEFORE_SWAP) -> Readers_collectNowOrByLastReader_load(old)
            :: else
            fi
        }
        d_step {   /* replaceStorage: the gate's store, with the work private to the lock holder around it */
            storage = made;
            gate = made;
            Gate_publish(made, NO_VARIANT);
            if
            :: st[made].count != st[old].count && !planted(BUG_NO_REINDEX) -> Registry_reindex()
            :: else
            fi;
            Registry_resetVacancies();
            made = 0;
            isRead = 0
        }
        if
        :: !planted(BUG_RETIRE_BEFORE_SWAP) -> d_step { Readers_collectNowOrByLastReader_load(old) }
        :: else
        fi;
        d_step { Registry_free_decide(); old = 0 }
    :: else -> old = 0
    fi
}

/* compact, its second part: rebuilds once vacancies are three eighths of the slots and no pass reads the
   storage, or once they are half of them whatever passes do. */
inline Registry_compact_rebuildIfSparse() {
    d_step {
        c = st[storage].count;
        decided = 0;
        if
        :: vacancies >= SPARSE_MIN && vacancies * 8 >= c * 3 ->
            if
            :: vacancies * 2 >= c -> decided = 1
            :: else -> decided = 2   /* if no pass reads the storage */
            fi;
            capacity = capacityOfRebuilt(c - vacancies)
        :: else
        fi
    }
    if
    :: decided == 2 -> Registry_isCurrentUnread(); decided = unread; unread = 0
    :: else
    fi;
    if
    :: decided -> decided = 0; Registry_rebuild()
    :: else -> capacity = 0
    fi
}

/* compact, its first part: drops the current storage's last slot if it owns nothing any more and no pass reads
   the storage (a load of the readers word, made only once the first tests hold, as `&&` does); then the slot is
   no vacancy any more, and the readers word is stored back to 0 (forgetCollect, a relaxed store that clears a
   collect bit, as in compactInPlace). Work private to the lock holder, with one load of the word: one step.

   The slot it drops need not be the one a removal unregistered (`r`; 0 in a reclaim): a slot that an earlier
   change released (a reclaim's collect, an add's, or the last reader's) may be last
   (path_slot_released_earlier_dropped). Such a
   slot stays below the count, so passes that enter later read it; the readers test is what keeps it then
   (path_released_last_slot_kept_while_read), which the variant that drops it whatever the readers breaks. The
   slot dropped holds no registration, which the check asserts: the variant that drops the last slot whatever
   it holds drops a live delegate. */
inline Registry_compact_dropLast() {
    d_step {
        c = st[storage].count;
        decided = 0;
        if
        :: c > 0 ->
            k = st[storage].key[c - 1];
            decided = !ownsReferences(k) || planted(BUG_DROP_IGNORES_OWNERSHIP) ||
                planted(BUG_DROP_UNRELEASED) && !isCallable(k)
        :: else
        fi
    }
    if
    :: decided && !planted(BUG_DROP_WHILE_READ) ->
        Registry_isCurrentUnread();
        d_step {
            if
            :: !unread -> reached(path_released_last_slot_kept_while_read)
            :: else
            fi
        }
    :: decided && planted(BUG_DROP_WHILE_READ) -> unread = 1
    :: else
    fi;
    d_step {
        c = st[storage].count;   /* as the first step found them: only passes' marks of ended keys change keys */
        if
        :: unread -> k = st[storage].key[c - 1]
        :: else
        fi;
        if
        :: unread ->
            reached(path_released_last_slot_dropped);
            if
            :: registrationOf(k) != r -> reached(path_slot_released_earlier_dropped)
            :: else
            fi;
            /* the slot dropped holds no registration */
            check(live_delegate_dropped, !isCallable(k));
            /* _StorageHandle.dropLast(): no pass reads the storage, for an add may write the slot next; every pass that
               read it is done, and its reads happen before */
            check(storage_rewritten_while_read, st[storage].passes == 0);
            check(happens_before, passesHappenBefore(storage));
            hb_wrote(storage);   /* the count, which the gate's opening publishes */
            st[storage].count = c - 1;
            vacancies--;
            st[storage].collect = 0;
            hbReaders[storage] = 0
        :: else
        fi;
        unread = 0;
        decided = 0;
        k = 0
    }
}

/* compact(_:): what every change that unregisters does last, after collect. */
inline Registry_compact() {
    Registry_compact_dropLast();
    Registry_compact_rebuildIfSparse()
}

/* collect: frees the older storages that no pass reads any more (else asks their last reader to), and
   releases the pending slots once no pass reads the current storage (for a strong one, asking the last
   reader to; weak references wait for the next change). Its first part may go into the caller's step. */
inline Registry_collect_first() {
    t = 0;
    Registry_nextRetired();
    if
    :: t < NS -> Readers_collectNowOrByLastReader_load(t)
    :: else
    fi
}

inline Registry_collect_rest() {
    do
    :: t < NS ->
        d_step {
            Readers_collectNowOrByLastReader_setBit(t);
            if
            :: unread ->
                retired[t] = 0;
                garbageStorages = garbageStorages | (1 << t);
                reached(path_older_storage_freed_by_collect)
            :: else
            fi;
            unread = 0;
            t++;
            Registry_nextRetired()
        }
        if
        :: t < NS -> d_step { Readers_collectNowOrByLastReader_load(t) }
        :: else
        fi
    :: else -> break
    od;
    atomic {
        t = 0;
        a1 = 0; decided = 0;
        do
        :: a1 < MAXCAP -> decided = decided || pending[a1]; a1++
        :: else -> break
        od
    }
    /* Pending slots are the current storage's: released once no pass reads it, and none can enter it. With a
       pending strong delegate, the gate is closed before the word's load, so that the last reader, or this change,
       releases it; else the weak references wait for a change that finds the storage unread. */
    if
    :: decided && pendingStrong > 0 ->
        if
        :: !planted(BUG_CLOSE_AFTER_CHECK) -> d_step { gateClosed = 1; Readers_collectNowOrByLastReader_load(storage) }
        :: else -> d_step { Readers_collectNowOrByLastReader_load(storage) }; gateClosed = 1
        fi
    :: decided && pendingStrong == 0 && planted(BUG_COLLECT_IGNORES_READERS) -> unread = 1
    :: decided && pendingStrong == 0 && !planted(BUG_COLLECT_IGNORES_READERS) -> Registry_isCurrentUnread()
    :: else
    fi;
    if
    :: decided ->
        d_step {
            if
            :: pendingStrong > 0 -> Readers_collectNowOrByLastReader_setBit(storage)
            :: else
            fi;
            if
            :: unread ->
                reached(path_pending_slots_released);
                hb_wrote(storage);   /* the released keys */
                pos = 0;
                do
                :: pos < MAXCAP ->
                    if
                    :: pending[pos] ->
                        Slot_release(storage, pos);
                        Garbage_append();
                        pending[pos] = 0
                    :: else
                    fi;
                    pos++
                :: else -> break
                od;
                pendingStrong = 0
            :: else -> reached(path_pending_slots_wait_for_readers)
            fi;
            unread = 0;
            decided = 0
        }
    :: else
    fi
}

inline Registry_collect() {
    d_step { Registry_collect_first() }
    Registry_collect_rest()
}

/* reclaimEnded(in:stride:from:to:readers:reporting:_:), under the lock, by a pass that marked registrations ended
   (`firstEnded` the first position, in the storage `ps` it read, which it still counts itself in): each slot of `ps`
   from `i` on whose key is callable and ended stands for a registration to unregister where it is now, in the
   current storage: at the same position if the pass read the current storage, else found by its registration (it
   is there: a removal marks a registration removed in every storage that passes read). An ended owned registration's
   count on its delegate waits for readers as a strong delegate's does. The step that takes the lock finds the
   first such slot and unregisters it; each later step, the next one. Sets `found` to NONE after the last. */
inline Registry_findMarked() {
    found = NONE;
    do
    :: i >= end || found != NONE -> break
    :: else ->
        k = st[ps].key[i];
        if
        :: isCallable(k) && isEnded(k) ->
            if
            :: ps == storage || planted(BUG_RECLAIM_BY_POSITION) ->
                found = (i < st[storage].count -> i : NONE)
            :: else ->
                Storage_position(storage, registrationOf(k));
                if
                :: found != NONE -> reached(path_reclaim_finds_moved_registration)
                :: else
                fi
            fi;
            if
            :: found != NONE && !isCallable(st[storage].key[found]) -> found = NONE
            :: else
            fi;
            /* A registration callable where the pass read it is registered, where it is now: a removal marks it
               removed in every storage that a pass reads, under the lock. */
            check(registry_and_index_disagree, found != NONE);
            if
            :: found == NONE -> i++
            :: else
            fi
        :: else -> i++
        fi
    od;
    if
    :: found != NONE ->
        reached(path_dead_delegate_reclaimed);
        o = st[storage].object[found];
        check(registry_and_index_disagree, index[o] == found);
        check(live_delegate_dropped, refs[ownerOf(o)] == 0);   /* a dead object stays dead */
        if
        :: o == D3 -> reached(path_ended_owned_reclaimed)
        :: else
        fi;
        index[o] = NONE;
        Registry_unregister_current(found);
        /* the variant: its owner dead, the registration cannot be called, so its delegate goes at once */
        if
        :: planted(BUG_RECLAIM_RELEASES_OWNED) && o == D3 ->
            Slot_release(storage, found);
            Garbage_append();
            pending[found] = 0;
            pendingStrong--
        :: else
        fi
    :: else
    fi
}

/* The end of a pass that marked registrations ended (_Pass.end, then _Core.passEnded(findingEndedIn:...)): under
   the lock, it unregisters what it marked, then counts itself out, collects and compacts, as one change. Every
   registration it found ended is unregistered when the lock is let go of. */
inline Core_passEndedFindingEnded() {
    ps = s;
    if
    :: planted(BUG_RECLAIM_AFTER_LEAVE) -> d_step { Readers_leave(); last = 0 }
    :: else
    fi;
    d_step {
        Lock_acquire();
        check(storage_freed_while_read, st[ps].state == ALLOCATED);
        i = firstEnded;
        Registry_findMarked();
        p = found
    }
    do
    :: p != NONE ->
        Registry_unregister_older();
        r = 0;
        d_step {
            check(storage_freed_while_read, st[ps].state == ALLOCATED);
            i++;
            Registry_findMarked();
            p = found
        }
    :: else -> break
    od;
    r = 0;   /* a statement between the loop and the step: `break` may not jump into a d_step */
    d_step {
        check(ended_registration_kept, (registeredSet & endedSet) == 0);
        endedSet = 0;
        firstEnded = NONE;
        i = 0;
        p = 0;
        ps = 0;
        if
        :: me != 0 -> Readers_leave(); last = 0   /* counted out under the lock: collect looks for itself */
        :: else
        fi
    }
    Registry_collect();
    Registry_compact();
    Core_endChange()
}

/* ---- _Garbage.release, outside the lock -------------------------------------------------------------------------- */

/* d0's deinit uses the multicast (it takes the lock), as a delegate's deinit may. */
inline Delegate_deinit() {
    if
    :: deinit ->
        d_step {
            lockOwner == 0 ->
            deinit = 0;
            deinitialized = 1;
            if
            :: thread == CALLER -> reached(path_strong_delegate_released_after_pass)
            :: else
            fi
        }
    :: else
    fi
}

/* A thread whose last call this is returns, as far as views go, once no storage is left to free: the rest of the
   garbage is strong references, released with no check. */
inline Garbage_returnIfDone() {
    if
    :: returning && garbageStorages == 0 -> returning = 0; hb_return()
    :: else
    fi
}

inline Garbage_release() {
    do
    :: garbageStorages != 0 ->
        d_step {   /* the first storage in the garbage: releaseAll, then it is freed */
            t = 0;
            do
            :: (garbageStorages & (1 << t)) == 0 -> t++
            :: else -> break
            od;
            check(storage_freed_while_read, st[t].passes == 0);
            check(happens_before, passesHappenBefore(t));
            Storage_releaseAll(t);
            st[t].state = FREED;
            hb_forget(t);
            garbageStorages = garbageStorages & ~(1 << t);
            Garbage_returnIfDone();
            t = 0
        }
        Delegate_deinit()
    :: else -> break
    od;
    if
    :: garbageStrong > 0 || garbageOwned > 0 ->
        d_step {
            check(reference_released_twice, refs[D0] >= garbageStrong && refs[D3] >= garbageOwned);
            if
            :: garbageStrong > 0 ->
                refs[D0] = refs[D0] - garbageStrong;
                garbageStrong = 0;
                deinit = (refs[D0] == 0)
            :: else
            fi;
            if
            :: garbageOwned > 0 && thread == CALLER -> reached(path_owned_delegate_released_after_pass)
            :: else
            fi;
            refs[D3] = refs[D3] - garbageOwned;   /* d3's deinit, if this was its last count, checks nothing */
            garbageOwned = 0
        }
        Delegate_deinit()
    :: else
    fi
}

/* _Core.endChange, which ends every change of the registry: the gate, if the change closed it, is opened (a store
   with release ordering, which publishes what the change wrote to the passes that then enter), the lock is
   released, then the garbage. */
inline Core_endChange() {
    if
    :: gateClosed -> d_step { gateClosed = 0; Gate_publish(storage, BUG_GATE_OPENED_RELAXED) }
    :: else
    fi;
    if
    :: bugHere != BUG_GARBAGE_RELEASED_UNDER_LOCK ->
        d_step { Lock_release(); Garbage_returnIfDone() }
        Garbage_release()
    :: else ->
        Garbage_release();
        d_step { Lock_release(); Garbage_returnIfDone() }
    fi
}

/* ---- _Pass ------------------------------------------------------------------------------------------------------- */

/* end: _Readers.leave, fetch_sub(release), which says whether this was the last reader with the collect bit
   set; that reader collects (_Pass.collect). The pass's reads are done: its end joins its thread's view, and
   the release adds that view to what the word publishes. */
inline Readers_leave() {
    last = (st[s].collect && st[s].readers == 1);
    st[s].readers--;
    st[s].passes--;
    hbView[thread] = hbView[thread] | me;
    if
    :: !planted(BUG_LEAVE_RELAXED) -> hbReaders[s] = hbReaders[s] | hbView[thread]
    :: else
    fi;
    hb_canonical();
    me = 0;
    s = 0
}

inline Pass_end() {
    d_step { Readers_leave() }
    Core_passEnded()
}

inline Core_passEnded() {
    if
    :: last ->
        last = 0;
        d_step { Lock_acquire(); reached(path_last_reader_collects); Registry_collect_first() }
        Registry_collect_rest();
        Core_endChange()
    :: else
    fi
}

/* ---- MulticastDelegate ------------------------------------------------------------------------------------------- */

/* The end of every pass (_Pass.end): one that marked registrations ended unregisters them under the lock, where it
   counts itself out; any other counts itself out, and collects if it was the last reader with the collect bit set.
   The variant leaves what it marked for later. */
inline Pass_finish() {
    if
    :: firstEnded != NONE && !planted(BUG_NO_RECLAIM_AT_PASS_END) -> Core_passEndedFindingEnded()
    :: else ->
        d_step {
            check(ended_registration_kept, (registeredSet & endedSet) == 0);
            endedSet = 0;
            firstEnded = NONE;
            Readers_leave()
        }
        Core_passEnded()
    fi
}

/* _Core.reclaimEndedRegistrations: the search before a full storage grows, a pass (the adder's scan) that marks
   the callable slots whose owner is dead (_Pass.markEndedRegistrations, _Slot.markEnded(base:stride:from:to:)), and
   unregisters them as it ends. Its loads and marks are one step: keys only ever become removed, and a dead object
   stays dead, so loads that interleave with removals and the deaths mark what a search at the moment it loads the
   dying object's slot marks; and the end checks each marked key again under the lock. The scan counts itself in
   and out as a reader in steps of their own. */
inline Core_searchForEnded() {
    Core_enterPass(0);
    d_step {
        check(storage_freed_while_read, st[s].state == ALLOCATED);
        i = 0;
        do
        :: i < end ->
            check(storage_rewritten_while_read, i < st[s].count);
            k = st[s].key[i];
            if
            :: isCallable(k) && endsWithOwner(k) ->
                check(reference_released_while_read, st[s].owns[i]);
                if
                :: refs[ownerOf(st[s].object[i])] == 0 ->
                    st[s].key[i] = k | ENDED_BIT;
                    endedSet = endedSet | bitOf(registrationOf(k));
                    firstEnded = (firstEnded == NONE -> i : firstEnded)
                :: else
                fi
            :: else
            fi;
            i++
        :: else -> break
        od;
        i = 0
    }
    Pass_finish();
    end = 0
}

/* call: one pass, `kind` OUTER_PASS or NESTED_PASS. The outer pass may start a nested one from inside one of its
   delegate calls, on the same thread; once it is done, the thread returns. */
proctype Pass(byte kind) {
    byte thread = CALLER;
    REGISTRY_VARIABLES;
    PASS_VARIABLES;
    byte lastCalled;
    short key;
    bit didNest;
    bit keeping;   /* the keeper holds d3's owner, which the weak load returned, until the call ends */

    /* _Pass.init: _Core.enterPass(), through the gate, or under the lock */
    me = kind;
    Core_enterPass(1);
    d_step {
        if
        :: kind == NESTED_PASS -> reached(path_nested_pass)
        :: else
        fi
    }
    do
    :: i < end ->
       d_step {   /* _Slot.lend: the key */
           check(storage_freed_while_read, st[s].state == ALLOCATED);
           check(storage_rewritten_while_read, i < st[s].count);
           key = st[s].key[i];
           seenSet = seenSet | bitOf(registrationOf(key));
           if
           :: isCallable(key) ->
               r = registrationOf(key);
               check(new_pass_calls_removed, (gone & bitOf(r)) == 0);
               check(removed_before_turn_called, (removalReturnedSet & bitOf(r)) == 0);
               check(added_during_pass_called, r <= startRegistration);
               check(called_out_of_order, r > lastCalled);
               lastCalled = r;
               /* a strong delegate is lent without a retain; the weak reference of a weak or owned one's owner
                  is loaded next */
               check(reference_released_while_read, st[s].owns[i]);
               r = 0
           :: else ->
               reached(path_pass_skips_removed);
               check(live_delegate_dropped, (registeredSet & bitOf(registrationOf(key))) == 0);
               key = 0;
               i++
           fi;
           if
           :: planted(BUG_PASS_READS_COUNT_EACH_TURN) -> end = st[s].count
           :: else
           fi
       }
       if
       :: key != 0 && endsWithOwner(key) && !(planted(BUG_PASS_CALLS_OWNED_AS_STRONG) && isStrong(key)) ->
          d_step {   /* _Slot.liveness: the weak load of the owner, which the keeper holds if it is alive */
              check(storage_freed_while_read, st[s].state == ALLOCATED);
              check(reference_released_while_read, st[s].owns[i]);
              if
              :: refs[ownerOf(st[s].object[i])] == 0 ->
                  /* _Pass.noteEnded: the key marked ended (an atomic OR, in this step: see "What is one step") */
                  st[s].key[i] = st[s].key[i] | ENDED_BIT;
                  endedSet = endedSet | bitOf(registrationOf(key));
                  firstEnded = (firstEnded == NONE -> i : firstEnded);
                  if
                  :: isOwned(key) -> reached(path_pass_skips_ended_owned)
                  :: else -> reached(path_pass_skips_dead)
                  fi;
                  key = 0;
                  i++
              :: else ->
                  if
                  :: isOwned(key) -> refs[O3]++; keeping = 1   /* d3's keeper is its owner; d2's is not tracked */
                  :: else
                  fi
              fi
          }
       :: else
       fi;
       if
       :: key != 0 ->   /* the delegate is called, with no lock held */
           if
           :: kind == OUTER_PASS && !didNest ->   /* ... and starts a nested pass */
               didNest = 1;
               atomic { nestedRunning = 1; run Pass(NESTED_PASS) };
               nestedRunning == 0
           :: true
           fi;
           d_step {   /* the call ends; the keeper goes as the pass reads on (_Pass.next lets go of it first) */
               /* an owned delegate was called with its owner alive throughout: an owner that dies stays dead */
               check(called_after_owner_died, !isOwned(key) || refs[O3] > 0);
               if
               :: isOwned(key) -> reached(path_owned_delegate_called)
               :: else
               fi;
               if
               :: keeping -> refs[O3]--; keeping = 0
               :: else
               fi;
               key = 0;
               i++
           }
       :: else
       fi
    :: else -> break
    od;
    atomic {
        /* every registration registered when the pass started has its slot in the storage it read, below its count */
        check(registered_delegate_missed, (startSet & ~seenSet) == 0);
        i = 0; startRegistration = 0; lastCalled = 0; gone = 0; startSet = 0; seenSet = 0
    }
    Pass_finish();
    end = 0;
    if
    :: kind == NESTED_PASS -> nestedRunning = 0
    :: kind != NESTED_PASS -> d_step { hb_return() }   /* the thread returns */
    fi
}

/* remove(_:), and remove(ownedBy:) for d3: the step that takes the lock finds the slot and marks it in the
   current storage; then the rest of unregister, collect and compact, as _Registry.remove(_:_:) and
   remove(ownedBy:_:) do them.
   No position is carried from one to the next: the registration unregistered (`r`) only names the removal that
   returns, when the lock is released.

   remove(ownedBy:) finds the owner's live registration. When the owner is dead to weak references, the call can
   only come from its deinit, and the removal unregisters the ended owned registration filed under its address
   (where owners are pinned, `find` finds it by the address alone; else unregisterEndedOwnedRegistrations): here
   d3's, unless a reclaim unregistered it first. (The library's caller
   holds a live owner until the removal returns; the remover does not, so the owner may die sooner here, which
   only adds interleavings.) */
inline MulticastDelegate_remove(ro) {
    d_step {
        Lock_acquire();
        Registry_find(ro);
        if
        :: p != NONE && ro == D3 -> reached(path_owned_removed_by_owner)
        :: p == NONE && ro == D3 && refs[O3] == 0 && index[D3] != NONE ->
            p = index[D3];
            check(live_delegate_dropped, isCallable(st[storage].key[p]));
            reached(path_owned_removed_in_owner_deinit)
        :: else
        fi;
        if
        :: p != NONE ->
            index[ro] = NONE;
            Registry_unregister_current(p)
        :: else
        fi
    }
    if
    :: p != NONE ->
        Registry_unregister_older();
        Registry_collect();
        Registry_compact();
        d_step { returnedRegistrations = bitOf(r); r = 0; p = 0 }
    :: else
    fi;
    Core_endChange()
}

/* Moves `old` and `p` on to the next slot that removeAll marks: the slots of each retired storage, then those
   of the current one; `old` is NONE after the last. */
inline Registry_removeAll_next() {
    do
    :: old != NONE && p >= st[old].count ->
        p = 0;
        if
        :: old == storage -> old = NONE
        :: else ->
            t++;
            Registry_nextRetired();
            old = (t < NS -> t : storage)
        fi
    :: else -> break
    od;
    skip
}

/* removeAll(): marks each slot of each storage that passes may read, one slot per step; then frees the
   current storage for an empty one. */
inline MulticastDelegate_removeAll() {
    d_step {
        Lock_acquire();
        reached(path_remove_all);
        returnedRegistrations = registeredSet;
        registeredSet = 0;
        t = 0;
        Registry_nextRetired();
        old = (t < NS -> t : storage);
        p = 0;
        Registry_removeAll_next()
    }
    do
    :: old != NONE ->
        d_step {
            Registry_markRemoved(old, p);
            p++;
            Registry_removeAll_next()
        }
    :: else -> break
    od;
    /* replaceStorage: an empty storage, shown at the gate before the old one's readers are asked about */
    atomic {
        t = 0; p = 0;
        old = storage;
        Storage_make(1);   /* _Storage.make(minimumCapacity: 0) allocates at least one slot */
        made = new;
        if
        :: planted(BUG_RETIRE_BEFORE_SWAP) -> Readers_collectNowOrByLastReader_load(old)
        :: else
        fi
    }
    d_step {
        storage = made;
        gate = made;
        Gate_publish(made, NO_VARIANT);
        made = 0;
        a1 = 0;
        do
        :: a1 < NOBJ -> index[a1] = NONE; a1++
        :: else -> break
        od;
        Registry_resetVacancies()
    }
    if
    :: !planted(BUG_RETIRE_BEFORE_SWAP) -> d_step { Readers_collectNowOrByLastReader_load(old) }
    :: else
    fi;
    d_step { Registry_free_decide(); old = 0 }
    Registry_collect();
    Core_endChange()
}

/* Removes d0, then d1, d3 by its owner (the newest delegate, once the adder added it) or everything. */
proctype Remover() {
    byte thread = REMOVER;
    REGISTRY_VARIABLES;

    MulticastDelegate_remove(D0);
    if
    :: MulticastDelegate_remove(D1)
    :: index[D3] != NONE -> MulticastDelegate_remove(D3)   /* remove(ownedBy: O3), once the adder registered d3 */
    :: MulticastDelegate_removeAll()
    fi;
    d_step {   /* the remover drops its own reference to d0; d0's deinit, if this was the last, checks nothing */
        check(reference_released_twice, refs[D0] > 0);
        refs[D0]--;
        deinit = (refs[D0] == 0);
        hb_return()
    }
    Delegate_deinit()
}

/* add(_:ownedBy:) of d3, owned by O3: Registry.add; on .full, _reclaimDeadDelegates and a second try, which may
   grow the storage. makeRoom skips the search while the registrations are fewer than twice those that the last
   search left: the add may start as if it had searched, and grow at once. An owned add makes room first, then
   looks for the owner's registration to replace (find(owner, owned: true)): O3 has none, so the add appends
   only. The adder holds d3 and O3 during the add; as it returns, d3 is held by its slot's count alone, and the
   adder lets go of O3 at some later moment, or never: from then on O3 may die. */
inline Adder_findReplaced() {
    Registry_find(D3);
    check(model_bound_exceeded, p == NONE);   /* d3 is added once, and replaces no registration */
    p = 0
}

proctype Adder() {
    byte thread = ADDER;
    REGISTRY_VARIABLES;
    PASS_VARIABLES;
    bit searched, outOfRoom, reused;

    if
    :: searched = 0
    :: searched = 1
    fi;

    do
    :: d_step {
           Lock_acquire();
           c = st[storage].count;
           decided = c == st[storage].capacity;
           outOfRoom = decided && !searched && capacityOfRebuilt(c - vacancies) > st[storage].capacity;
           returning = !outOfRoom;
           capacity = capacityOfRebuilt(c - vacancies);
           if
           :: outOfRoom -> reached(path_add_finds_storage_full)
           :: else
           fi;
           /* the variant fills the first vacant slot of a full storage that no pass reads */
           if
           :: planted(BUG_ADD_REUSES_VACANCY) && !outOfRoom && decided && vacancies > 0 &&
              st[storage].readers == 0 ->
               decided = 0;
               reused = 1;
               pos = 0;
               do
               :: isCallable(st[storage].key[pos]) -> pos++
               :: else -> break
               od;
               Slot_release(storage, pos);
               Garbage_append();
               if
               :: pending[pos] && isStrong(st[storage].key[pos]) -> pendingStrong--
               :: else
               fi;
               pending[pos] = 0;
               vacancies--;
               Adder_findReplaced();
               lastRegistration++;
               st[storage].key[pos] = makeKey(lastRegistration, OWNED);
               st[storage].object[pos] = D3;
               st[storage].owns[pos] = 1;
               index[D3] = pos;
               registeredSet = registeredSet | bitOf(lastRegistration);
               hb_wrote(storage)
           :: else
           fi
       }
       if
       :: outOfRoom ->   /* .full: reclaim the dead delegates, then try again, growing if need be */
           outOfRoom = 0; decided = 0; capacity = 0;
           Core_endChange();
           me = ADDER_SCAN;
           Core_searchForEnded();
           searched = 1
       :: else -> break
       fi
    od;
    if
    :: reused -> reused = 0; Registry_collect()
    :: else ->
        if
        :: decided -> decided = 0; Registry_rebuild()   /* add, on a full storage */
        :: else -> capacity = 0
        fi;
        d_step {   /* find, then _Slot.occupy at `count`, where no pass reads; then the index */
            Adder_findReplaced();
            check(model_bound_exceeded, st[storage].count < st[storage].capacity);
            lastRegistration++;
            pos = st[storage].count;
            /* the slot takes a count on d3 (refs[D3]++), and the adder's reference goes as the add returns
               (refs[D3]--), which no check before then can tell apart: refs[D3] stays 1. Its weak reference
               loads O3, alive, which the adder holds. */
            st[storage].key[pos] = makeKey(lastRegistration, OWNED);
            st[storage].object[pos] = D3;
            st[storage].owns[pos] = 1;
            st[storage].count = pos + 1;
            index[D3] = pos;
            registeredSet = registeredSet | bitOf(lastRegistration);
            hb_wrote(storage);
            /* the count's store, with release ordering, which publishes the slot to passes that load the count */
            Storage_publishCount(storage, BUG_COUNT_STORED_RELAXED);
            Registry_collect_first()
        }
        Registry_collect_rest()
    fi;
    Core_endChange();
    /* The adder lets go of O3, which then dies unless a pass's keeper holds it (and dies when that goes), or keeps
       it for good. */
    if
    :: refs[O3]--
    :: skip
    fi
}

/* The last strong reference to d2 goes, at any moment, or never: from then on its weak loads return nil. */
proctype Death() {
    if
    :: refs[D2]--
    :: skip
    fi
}

init {
    byte thread = 0;
    bit deinit;

    c_code { model_select_variant(); atexit(model_report_paths); };

    /* What three adds leave with these constants: d0 (strong), d1 and d2 (weak), registrations 1 to 3, in a
       full storage of three slots. */
    d_step {
        allocated = 1;
        storage = 0;
        st[0].state = ALLOCATED;
        st[0].capacity = 3;
        st[0].count = 3;
        st[0].key[0] = makeKey(1, STRONG); st[0].object[0] = D0; st[0].owns[0] = 1;
        st[0].key[1] = makeKey(2, WEAK); st[0].object[1] = D1; st[0].owns[1] = 1;
        st[0].key[2] = makeKey(3, WEAK); st[0].object[2] = D2; st[0].owns[2] = 1;
        index[D0] = 0; index[D1] = 1; index[D2] = 2; index[D3] = NONE;
        lastRegistration = 3;
        registeredSet = bitOf(1) | bitOf(2) | bitOf(3);
        refs[D0] = 2;   /* its slot's, and the remover's */
        refs[D1] = 1;   /* its owner's, for good */
        refs[D2] = 1;   /* its owner's, which Death may drop */
        refs[D3] = 1;   /* the adder's, until its slot's count takes over */
        refs[O3] = 1;   /* the adder's, which it may let go of once d3 is added */
        Registry_agrees()
    }
    atomic {
        /* In this order, the depth-first search finds the variants' counterexamples sooner: it tries the last
           thread's steps first. */
        run Pass(OUTER_PASS);
        run Adder();
        run Remover();
        run Death()
    }

    _nr_pr == 1;   /* every thread has returned */
    d_step {
        /* Each older storage was freed by its last reader, and d0, removed, was released. */
        a1 = 0;
        do
        :: a1 < NS -> check(never_released, a1 == storage || st[a1].state != ALLOCATED); a1++
        :: else -> break
        od;
        check(never_released, deinitialized && refs[D0] == 0);
        /* d3, once unregistered (removed, reclaimed or removed with everything), was released as d0 was */
        check(never_released, index[D3] != NONE || refs[D3] == 0);
        /* No pass reads the current storage now: a collect bit left set would cost each later pass the lock. */
        check(collect_bit_left_set, st[storage].readers == 0 && !st[storage].collect);
        /* The multicast goes: its storage's deinit releases what the slots own; then nothing owns anything. This
           thread joined the others, so every event of theirs happens before. */
        hbView[thread] = EVERYTHING;
        Storage_releaseAll(storage);
        st[storage].state = FREED;
        a1 = 0;
        do
        :: a1 < NS ->
            pos = 0;
            do
            :: pos < MAXCAP -> check(never_released, !st[a1].owns[pos]); pos++
            :: else -> break
            od;
            a1++
        :: else -> break
        od;
        check(never_released, refs[D3] == 0);
        skip
    }
}

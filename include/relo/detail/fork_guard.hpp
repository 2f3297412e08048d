// relo/detail/fork_guard.hpp — relo's locks across fork(): consistent in the child, in one place.
//
// A child of fork() has one thread, the one that forked; a lock another thread held at that moment stays
// held in the child for good, and the first use of what it guards hangs there. So, as glibc does for its
// malloc arenas and jemalloc for its own locks, every relo lock that outlives one call (the thread caches'
// registry, the synchronized multipool's locks, the test and profiling resources' locks) is reached from
// one list of fork_guard nodes, and pthread_atfork handlers take every lock before the fork and release them
// after it, in the parent and in the child, where each node also drops what belonged to the other threads.
//
// Order: the handlers take the locks in the list's order, which must be one every path of relo nests them
// in: a resource's locks before those of the resources it calls (its upstream, which exists before it:
// the newest resource first), and the thread caches' registry, taken under any of them, last
// (set_last_fork_guard). The handlers are registered once per copy of relo in the process, by the first node
// (a program that never makes one registers nothing); glibc unregisters them when the library holding that
// copy is unloaded.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_FORK_GUARD_HPP
#define RELO_DETAIL_FORK_GUARD_HPP


#include "relo/detail/config.hpp"
#include "relo/detail/sync.hpp"

#if !defined(_WIN32)
#include <pthread.h>
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

/// A lock of its own for each Tag, constant-initialized and never destroyed: threads ending during or
/// after static destruction still take it.
template <class Tag>
os_lock& immortal_lock() noexcept {
    RELO_CONSTINIT static os_lock lock;
    return lock;
}

/// A node of the fork list: what to do with some locks around a fork.
struct fork_guard {
    void (*prepare)(fork_guard&) noexcept;   // take every lock (the forking thread)
    void (*parent)(fork_guard&) noexcept;    // release them, in the parent
    void (*child)(fork_guard&) noexcept;     // release or reset them in the child, and drop other threads' parts
    fork_guard* next = nullptr;  // (the list's order: the newest first)
    fork_guard* previous = nullptr;
};

struct fork_guard_list {
    fork_guard* first = nullptr;
    // The thread caches' registry: set without the list's lock, since a thread may list its caches while
    // it holds a resource's lock (the list's lock is taken before those: the order would climb).
    atomic<fork_guard*> last{nullptr};
    fork_guard* prepared_last = nullptr;  // what the forking thread took (another may set `last` meanwhile)
};
inline fork_guard_list fork_guards;

/// The thread caches' registry's lock (relo/detail/thread_cache.hpp), here so that every fork takes it,
/// last, whether its node is listed yet or not: a thread taking it for the first time, whose node the
/// forking thread may not see yet, cannot hold it across the fork.
struct thread_cache_registry_tag {};
inline os_lock& thread_cache_registry_lock() noexcept { return immortal_lock<thread_cache_registry_tag>(); }

#if !defined(_WIN32)
inline void fork_prepare() noexcept {
    immortal_lock<fork_guard_list>().lock();
    for (fork_guard* g = fork_guards.first; g != nullptr; g = g->next) g->prepare(*g);
    thread_cache_registry_lock().lock();
    fork_guards.prepared_last = fork_guards.last.load(memory_order_acquire);
    if (fork_guard* g = fork_guards.prepared_last) g->prepare(*g);
}
inline void fork_parent() noexcept {
    if (fork_guard* g = fork_guards.prepared_last) g->parent(*g);
    thread_cache_registry_lock().unlock();
    fork_guard* last = fork_guards.first;
    while (last != nullptr && last->next != nullptr) last = last->next;
    for (fork_guard* g = last; g != nullptr; g = g->previous) g->parent(*g);
    immortal_lock<fork_guard_list>().unlock();
}
inline void fork_child() noexcept {
    if (fork_guard* g = fork_guards.prepared_last) g->child(*g);
    thread_cache_registry_lock().unlock();
    fork_guard* last = fork_guards.first;
    while (last != nullptr && last->next != nullptr) last = last->next;
    for (fork_guard* g = last; g != nullptr; g = g->previous) g->child(*g);
    immortal_lock<fork_guard_list>().unlock();  // (the forking thread, the child's only one, took it)
}
#endif

#if !defined(_WIN32)
inline pthread_once_t fork_handlers_registered = PTHREAD_ONCE_INIT;
inline void register_fork_handlers_now() noexcept {
    // (ENOMEM: forks then go on without relo's handlers, as before any lock existed)
    (void)::pthread_atfork(&fork_prepare, &fork_parent, &fork_child);
}
#endif
/// Registers the fork handlers, once per copy of relo. Never called with a relo lock held: pthread_atfork
/// waits for a fork in progress, whose handlers may wait for that lock. (By pthread_once, not a guarded
/// static: a child forked while another thread was inside a static's first initialization would wait for
/// that thread for good, where glibc's pthread_once starts the initialization again in the child.)
inline void register_fork_handlers() noexcept {
#if !defined(_WIN32)
    (void)::pthread_once(&fork_handlers_registered, &register_fork_handlers_now);
#endif
}

/// Puts g first in the list (the newest first), under the list's lock.
inline void list_first(fork_guard& g) noexcept {
    g.previous = nullptr;
    g.next = fork_guards.first;
    if (g.next != nullptr) g.next->previous = &g;
    fork_guards.first = &g;
}

/// Lists g: from now on every fork takes and releases its locks. Called before any of them can be held.
inline void add_fork_guard(fork_guard& g) noexcept {
    register_fork_handlers();
    const os_lock_hold hold(immortal_lock<fork_guard_list>());
    list_first(g);
}

/// Lists g unless it is listed already (a node of static storage that several threads may list first;
/// its fork_guard has a constant initializer, so that no guarded static's first initialization is left
/// half done in a fork's child).
inline void add_fork_guard_once(fork_guard& g) noexcept {
    register_fork_handlers();
    const os_lock_hold hold(immortal_lock<fork_guard_list>());
    if (g.previous == nullptr && fork_guards.first != &g) list_first(g);
}

/// Sets the node taken last, after every listed one, without the list's lock (see fork_guard_list::last).
inline void set_last_fork_guard(fork_guard& g) noexcept {
    register_fork_handlers();
    fork_guards.last.store(&g, memory_order_release);
}

/// Takes g off the list (before its locks are destroyed).
inline void remove_fork_guard(fork_guard& g) noexcept {
    const os_lock_hold hold(immortal_lock<fork_guard_list>());
    (g.previous != nullptr ? g.previous->next : fork_guards.first) = g.next;
    if (g.next != nullptr) g.next->previous = g.previous;
    g.next = g.previous = nullptr;
}

/// The node of an object's own mutex, listed for as long as the node lives: declare it as the
/// object's last member (listed once everything else is made, taken off before anything is destroyed).
/// The forking thread takes the mutex; it unlocks it after the fork in the parent and in the child (whose
/// only thread it is). For a lock that calls only what exists before its object (an upstream) while held.
template <class Mutex>
class fork_guarded_mutex : fork_guard {
public:
    explicit fork_guarded_mutex(Mutex& m) noexcept : fork_guard{&lock, &unlock, &unlock}, mutex_(m) {
        add_fork_guard(*this);
    }
    ~fork_guarded_mutex() { remove_fork_guard(*this); }
    fork_guarded_mutex(const fork_guarded_mutex&) = delete;
    fork_guarded_mutex& operator=(const fork_guarded_mutex&) = delete;

private:
    static void lock(fork_guard& g) noexcept { static_cast<fork_guarded_mutex&>(g).mutex_.lock(); }
    static void unlock(fork_guard& g) noexcept { static_cast<fork_guarded_mutex&>(g).mutex_.unlock(); }
    Mutex& mutex_;
};

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_FORK_GUARD_HPP

// relo/detail/warm_settings.hpp — the warm budget's two settings (docs/settings.md): the most all threads'
// caches keep together (relo::set_warm_memory_limit) and how long a thread keeps what its caches hold
// without keeping more before its next keep gives it back (relo::set_warm_memory_idle_delay). Each starts
// unread: its first use reads the environment a host program gives (RELO_WARM_MEMORY_LIMIT,
// RELO_WARM_MEMORY_IDLE_DELAY_MS), else takes the build's default; a setter called before that first use
// wins over both. And the clock idle times are measured with.
// Layer 2, memory mechanisms (docs/design.md, "Layers"): includes no relo header of a higher layer.
#ifndef RELO_DETAIL_WARM_SETTINGS_HPP
#define RELO_DETAIL_WARM_SETTINGS_HPP

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <type_traits>

#include "relo/detail/config.hpp"
#include "relo/detail/contracts.hpp"
#include "relo/detail/os_memory.hpp"
#include "relo/detail/sync.hpp"

#if !RELO_OS_WINDOWS
#include <time.h>
#endif

// The build's defaults of the warm budget's settings (docs/settings.md, which says why each is what it is):
// -DRELO_DEFAULT_WARM_MEMORY_LIMIT=<bytes> (0: no cache keeps anything) and
// -DRELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS=<milliseconds>, the same in every unit of a program. The
// environment's RELO_WARM_MEMORY_LIMIT and RELO_WARM_MEMORY_IDLE_DELAY_MS win over them.
#ifndef RELO_DEFAULT_WARM_MEMORY_LIMIT
#define RELO_DEFAULT_WARM_MEMORY_LIMIT (std::uint64_t{64} << 20)
#endif
#ifndef RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS
#define RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS 1000
#endif

#include "relo/detail/abi.hpp"

namespace relo {
RELO_ABI_NAMESPACE_BEGIN
namespace detail {

// (Unread until the first use.)
inline constexpr std::size_t unread_limit = ~std::size_t{0};
inline constexpr std::int64_t unread_delay = -1;
inline atomic<std::size_t> warm_memory_limit_bytes{unread_limit};
inline atomic<std::int64_t> warm_memory_idle_delay_ns{unread_delay};
static_assert(std::is_integral_v<decltype(RELO_DEFAULT_WARM_MEMORY_LIMIT)> && RELO_DEFAULT_WARM_MEMORY_LIMIT >= 0,
              "relo: RELO_DEFAULT_WARM_MEMORY_LIMIT is a number of bytes");
static_assert(std::is_integral_v<decltype(RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS)> &&
                  RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS >= 0,
              "relo: RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS is a number of milliseconds");

/// The value of a setting: a decimal count, then (when `suffixes`) nothing or a binary multiple written
/// K, KB or KiB (M, G alike; any case). False, `value` untouched, for anything else (a sign, spaces, other
/// letters, overflow).
inline bool parse_setting(const char* text, std::uint64_t& value, bool suffixes = true) noexcept {
    std::uint64_t n = 0;
    const char* p = text;
    for (; *p >= '0' && *p <= '9'; ++p) {
        const std::uint64_t digit = static_cast<std::uint64_t>(*p - '0');
        if (n > (~std::uint64_t{0} - digit) / 10) return false;
        n = n * 10 + digit;
    }
    if (p == text) return false;
    unsigned shift = 0;
    if (*p != '\0') {
        switch (*p++) {
            case 'K': case 'k': shift = 10; break;
            case 'M': case 'm': shift = 20; break;
            case 'G': case 'g': shift = 30; break;
            default: return false;
        }
        if ((p[0] == 'i' || p[0] == 'I') && (p[1] == 'B' || p[1] == 'b')) p += 2;
        else if (p[0] == 'B' || p[0] == 'b') p += 1;
        if (!suffixes || *p != '\0' || n > (~std::uint64_t{0} >> shift)) return false;
    }
    value = n << shift;
    return true;
}

/// A setting from the environment: true and its value when the variable is set to one (an empty value is
/// unset); when it is set to something else, false and the text (at most `size` - 1 characters) in `bad`.
inline bool environment_setting(const char* name, std::uint64_t& value, bool suffixes, char* bad,
                                std::size_t size) noexcept {
    bad[0] = '\0';
    char text[64];
    if (!os::environment_variable(name, text, sizeof text) || text[0] == '\0') return false;
    if (parse_setting(text, value, suffixes)) return true;
    for (std::size_t i = 0; i + 1 < size && text[i] != '\0'; ++i, bad[i] = '\0') bad[i] = text[i];
    return false;
}

/// Reads the settings not read yet (from the environment, else the build's defaults; docs/settings.md).
/// Threads that race here read the same environment; a setter's value is never replaced; the one whose
/// value is stored says on stderr that a value the environment gave was not a number.
RELO_NOINLINE inline void read_warm_memory_settings() noexcept {
    char bad[64];
    const char* const bad_format = "relo: %s=\"%s\" is not %s: ignored\n";
    if (warm_memory_limit_bytes.load(memory_order_relaxed) == unread_limit) {
        std::uint64_t bytes = RELO_DEFAULT_WARM_MEMORY_LIMIT;
        environment_setting("RELO_WARM_MEMORY_LIMIT", bytes, true, bad, sizeof bad);
        if (bytes >= unread_limit) bytes = unread_limit - 1;
        std::size_t expected = unread_limit;
        if (warm_memory_limit_bytes.compare_exchange_strong(expected, static_cast<std::size_t>(bytes),
                                                            memory_order_relaxed) && bad[0] != '\0')
            print_to(stderr, bad_format, "RELO_WARM_MEMORY_LIMIT", bad, "a size (digits, then nothing, K, KB, KiB, M, MB, MiB, G, GB or GiB)");
    }
    if (warm_memory_idle_delay_ns.load(memory_order_relaxed) == unread_delay) {
        std::uint64_t ms = RELO_DEFAULT_WARM_MEMORY_IDLE_DELAY_MS;
        environment_setting("RELO_WARM_MEMORY_IDLE_DELAY_MS", ms, false, bad, sizeof bad);
        const std::uint64_t most = static_cast<std::uint64_t>(INT64_MAX / (1000 * 1000));
        std::int64_t expected = unread_delay;
        if (warm_memory_idle_delay_ns.compare_exchange_strong(
                expected, ms >= most ? INT64_MAX : static_cast<std::int64_t>(ms) * 1000 * 1000, memory_order_relaxed) &&
            bad[0] != '\0')
            print_to(stderr, bad_format, "RELO_WARM_MEMORY_IDLE_DELAY_MS", bad, "a number of milliseconds");
    }
}

/// The warm budget, in bytes (relo::warm_memory_limit).
inline std::size_t warm_memory_limit_setting() noexcept {
    const std::size_t bytes = warm_memory_limit_bytes.load(memory_order_relaxed);
    if (RELO_LIKELY(bytes != unread_limit)) return bytes;
    read_warm_memory_settings();
    return warm_memory_limit_bytes.load(memory_order_relaxed);
}

/// The idle delay, in nanoseconds (relo::warm_memory_idle_delay).
inline std::int64_t warm_memory_idle_delay_setting() noexcept {
    const std::int64_t ns = warm_memory_idle_delay_ns.load(memory_order_relaxed);
    if (RELO_LIKELY(ns != unread_delay)) return ns;
    read_warm_memory_settings();
    return warm_memory_idle_delay_ns.load(memory_order_relaxed);
}

/// The clock of idle times, read where a cache keeps a block: a coarse one, whose tick is far below the
/// idle delay and whose read costs less than CLOCK_MONOTONIC's (docs/measurements/memory_resources.md,
/// "A guest's costs").
inline std::int64_t idle_clock_ns() noexcept {
#if RELO_OS_WINDOWS
    return static_cast<std::int64_t>(::GetTickCount64()) * 1000 * 1000;
#elif defined(CLOCK_MONOTONIC_COARSE)
    timespec t;
    ::clock_gettime(CLOCK_MONOTONIC_COARSE, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000 * 1000 * 1000 + t.tv_nsec;
#else
    timespec t;
    ::clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<std::int64_t>(t.tv_sec) * 1000 * 1000 * 1000 + t.tv_nsec;
#endif
}

/// The idle clock's tick, at most: an idle time measured with it may be this much longer than the real
/// one (GetTickCount64's resolution; CLOCK_MONOTONIC_COARSE's is one jiffy, this long at HZ=100, the lowest).
inline constexpr std::int64_t idle_clock_tick_ns = std::int64_t{RELO_OS_WINDOWS ? 16 : 10} * 1000 * 1000;

/// Whether a cache that last kept a block at `since` (idle clock) has been idle for `idle_for` at `now`:
/// for a nonzero time, by at least a tick more than measured (never before the time has passed).
/// A time beyond what the clock can add a tick to (nanoseconds::max()) is never.
inline bool idle_long_enough(std::int64_t since, std::int64_t now, std::int64_t idle_for) noexcept {
    const std::int64_t tick = idle_clock_tick_ns;
    return idle_for <= 0 || (idle_for <= INT64_MAX - tick && now - since >= idle_for + tick);
}

}  // namespace detail
RELO_ABI_NAMESPACE_END
}  // namespace relo

#endif  // RELO_DETAIL_WARM_SETTINGS_HPP

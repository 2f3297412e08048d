// examples/relocation.cpp — relo/relocation.hpp: the trivial-relocation trait, the three ways to declare a
// type trivially relocatable, the compile-time check that says why a type is not, and the algorithms
// (relocate_at, uninitialized_relocate) for code that manages its own storage.
//
// Relocating an object is moving it to a new address and ending the original, in one step; for most types
// that step is a memcpy. relo's containers move such types as bytes, and never call their move
// constructors: the counter in `handle` below shows it.
#include <relo/relocation.hpp>
#include <relo/small_vector.hpp>
#include <relo/vector.hpp>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

namespace app {

int handle_moves = 0;  // (only to show which containers call the move constructor)

/// Owns a heap int; its move constructor and destructor are user-provided, so it is not trivially
/// copyable, but moving its bytes and forgetting the source is what they do: declared below.
struct handle {
    int* value = nullptr;
    explicit handle(int v) : value(new int(v)) {}
    handle(handle&& other) noexcept : value(std::exchange(other.value, nullptr)) { ++handle_moves; }
    handle& operator=(handle&&) = delete;
    ~handle() { delete value; }
};

/// The same shape, undeclared: relo moves it with its move constructor, as std::vector does.
struct plain_handle {
    int* value = nullptr;
    explicit plain_handle(int v) : value(new int(v)) {}
    plain_handle(plain_handle&& other) noexcept : value(std::exchange(other.value, nullptr)) { ++handle_moves; }
    plain_handle& operator=(plain_handle&&) = delete;
    ~plain_handle() { delete value; }
};

/// A type that says so itself, with a member (std::false_type would opt out, whatever else says).
struct file {
    int descriptor = -1;
    file() = default;
    file(file&& other) noexcept : descriptor(std::exchange(other.descriptor, -1)) {}
    ~file() {}  // (would close the descriptor)
    using relo_trivially_relocatable = std::true_type;
};

/// A template: trivially relocatable when its element is (specialization below).
template <class T>
struct boxed {
    std::unique_ptr<T> item;
    int generation = 0;
};

}  // namespace app

// 1. The user's declaration, at global namespace scope.
RELO_TRIVIALLY_RELOCATABLE(app::handle);

// 2. A specialization of the trait, for every boxed<T> at once: the box holds a pointer, an int and T's deleter.
namespace relo {
template <class T>
struct is_trivially_relocatable<app::boxed<T>> : all_trivially_relocatable<std::unique_ptr<T>, int> {};
}  // namespace relo

// The check: fails to compile, saying why, unless the type is trivially relocatable. (Try
// RELO_ASSERT_TRIVIALLY_RELOCATABLE(app::plain_handle): "the type's move constructor is not trivial ...".)
RELO_ASSERT_TRIVIALLY_RELOCATABLE(app::handle);
RELO_ASSERT_TRIVIALLY_RELOCATABLE(app::file);
RELO_ASSERT_TRIVIALLY_RELOCATABLE(app::boxed<std::string>);
RELO_ASSERT_TRIVIALLY_RELOCATABLE(std::pair<int, std::unique_ptr<double>>);

static_assert(relo::is_trivially_relocatable<app::handle>::value, "declared");
static_assert(!relo::is_trivially_relocatable_v<app::plain_handle>, "user-provided move, not declared");
static_assert(!relo::is_trivially_relocatable_v<relo::small_vector<int, 4>>, "it points at its own slots");
static_assert(relo::is_nothrow_relocatable_v<app::plain_handle>, "its move constructor is noexcept");

int main() {
    bool ok = true;

    // Containers: the declared type grows as bytes (realloc, mremap), the other one move by move.
    {
        relo::vector<app::handle> handles;
        for (int i = 0; i < 10'000; ++i) handles.emplace_back(i);
        const int declared_moves = std::exchange(app::handle_moves, 0);
        relo::vector<app::plain_handle> plain;
        for (int i = 0; i < 10'000; ++i) plain.emplace_back(i);
        std::printf("growing to 10000: %d move constructions when declared, %d when not\n", declared_moves,
                    app::handle_moves);
        ok = ok && declared_moves == 0 && app::handle_moves > 0 && *handles.back().value == 9999;
    }

    // relocate_at: one object from one buffer to another (a memcpy here; a move and a destruction for a
    // type that is not trivially relocatable, such as libstdc++'s std::string).
    alignas(app::handle) unsigned char from[sizeof(app::handle)];
    alignas(app::handle) unsigned char to[sizeof(app::handle)];
    app::handle* source = ::new (static_cast<void*>(from)) app::handle(42);
    app::handle* moved = relo::relocate_at(source, reinterpret_cast<app::handle*>(to));  // *source is gone
    ok = ok && *moved->value == 42;
    std::destroy_at(moved);

    alignas(std::string) unsigned char text_from[sizeof(std::string)];
    alignas(std::string) unsigned char text_to[sizeof(std::string)];
    std::string* text = ::new (static_cast<void*>(text_from)) std::string("relocated, whatever the type");
    std::string* text_moved = relo::relocate_at(text, reinterpret_cast<std::string*>(text_to));
    std::printf("%s\n", text_moved->c_str());
    ok = ok && *text_moved == "relocated, whatever the type";
    std::destroy_at(text_moved);

    // uninitialized_relocate: a hand-made buffer's growth, from one block to a larger one.
    const std::size_t n = 4;
    auto* old_block = static_cast<app::boxed<int>*>(std::malloc(n * sizeof(app::boxed<int>)));
    auto* new_block = static_cast<app::boxed<int>*>(std::malloc(2 * n * sizeof(app::boxed<int>)));
    if (old_block == nullptr || new_block == nullptr) return 1;
    for (std::size_t i = 0; i < n; ++i)
        ::new (static_cast<void*>(old_block + i)) app::boxed<int>{std::make_unique<int>(int(i)), 1};
    app::boxed<int>* end = relo::uninitialized_relocate(old_block, old_block + n, new_block);  // one memmove
    std::free(old_block);  // nothing to destroy there any more
    ok = ok && end == new_block + n && *new_block[3].item == 3;
    std::destroy(new_block, end);
    std::free(new_block);

    return ok ? 0 : 1;
}

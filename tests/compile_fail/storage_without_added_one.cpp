// Must not compile (C++20): a storage for detail::sequence_ops that lacks seq_added_one. The test
// storage_contract_names_the_missing_hook (tests/CMakeLists.txt) expects the error to name the hook;
// storage_contract_complete compiles it with the hook (-DRELO_TEST_COMPLETE_STORAGE): a fixed-capacity
// storage needs none of the growth hooks.
#include <memory>

#include "relo/detail/sequence.hpp"

class fixed_ints : public relo::detail::sequence_ops<fixed_ints, int, std::allocator<int>> {
    friend sequence_ops;

    int items_[4];
    int* end_ = items_;
    std::allocator<int> alloc_;

    int* seq_begin() const noexcept { return const_cast<int*>(items_); }
    int* seq_end() const noexcept { return end_; }
    int* seq_capacity_end() const noexcept { return const_cast<int*>(items_) + 4; }
    bool seq_full() const noexcept { return end_ == items_ + 4; }
    void seq_set_end(int* e) noexcept { end_ = e; }
#if defined(RELO_TEST_COMPLETE_STORAGE)
    void seq_added_one() noexcept { ++end_; }
#endif
    void seq_removed_one() noexcept { --end_; }
    std::allocator<int>& seq_allocator() noexcept { return alloc_; }
    std::size_t seq_max_size() const noexcept { return 4; }
    [[noreturn]] static void seq_too_large(const char*) { throw std::bad_alloc(); }
    static constexpr bool seq_fixed_capacity = true;
    static constexpr const char* seq_name = "fixed_ints";
    static constexpr bool seq_annotated = false;
};

int main() {
    fixed_ints v;
    v.push_back(1);
    return v.size() == 1 ? 0 : 1;
}

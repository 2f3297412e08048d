// relo::small_vector<T, 0> of a T still incomplete where it is instantiated (a recursive type) does not
// compile, and says what to use instead (docs/decisions.md, "small_vector<T, 0> needs T complete").
#include "relo/small_vector.hpp"

struct node {
    relo::small_vector<node, 0> children;
};

int main() { return static_cast<int>(node{}.children.size()); }

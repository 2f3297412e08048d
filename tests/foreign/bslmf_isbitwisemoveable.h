// A stand-in for BDE's bslmf_isbitwisemoveable.h (tests/foreign/README.md): the trait under the header's
// own include guard and namespace. Types are bitwise moveable when trivially copyable or when the trait is
// specialized for them.
#ifndef INCLUDED_BSLMF_ISBITWISEMOVEABLE
#define INCLUDED_BSLMF_ISBITWISEMOVEABLE

#include <type_traits>

namespace BloombergLP {
namespace bslmf {
template <class t_TYPE>
struct IsBitwiseMoveable : std::bool_constant<std::is_trivially_copyable_v<t_TYPE>> {};
}  // namespace bslmf
}  // namespace BloombergLP

#endif

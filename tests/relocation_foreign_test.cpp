// tests/relocation_foreign_test.cpp — relo honours the relocation traits other libraries declare, when their
// headers come first: folly's IsRelocatable and BDE's bslmf::IsBitwiseMoveable (stand-ins in tests/foreign/,
// spelled as the libraries spell them), and Qt's QTypeInfo<T>::isRelocatable (Qt itself, when installed:
// RELO_TEST_QT). A polymorphic type stays out whatever another library says.
#include "bslmf_isbitwisemoveable.h"
#include "folly/Traits.h"
#if defined(RELO_TEST_QT)
#include <QtCore/QString>
#include <QtCore/qtypeinfo.h>
#endif

#include <memory>
#include <string>

#include <gtest/gtest.h>

#include "relo/relocation.hpp"
#include "relo/vector.hpp"

namespace widgets {
struct folly_widget {  // declared with folly's macro below
    int* data = nullptr;
    folly_widget() = default;
    folly_widget(folly_widget&& other) noexcept : data(other.data) { other.data = nullptr; }
    ~folly_widget() { delete data; }
};
struct folly_member {  // says so itself, folly's way
    typedef std::true_type IsRelocatable;
    std::unique_ptr<int> p;
    folly_member() = default;
    folly_member(folly_member&&) noexcept = default;
    ~folly_member() {}
};
struct bde_gadget {  // specialized below, BDE's way
    std::unique_ptr<int> p;
    bde_gadget() = default;
    bde_gadget(bde_gadget&&) noexcept = default;
    ~bde_gadget() {}
};
struct undeclared {  // the same shape, declared nowhere
    std::unique_ptr<int> p;
    undeclared() = default;
    undeclared(undeclared&&) noexcept = default;
    ~undeclared() {}
};
struct polymorphic_gadget {  // another library says yes; relo does not trust it for a polymorphic type
    virtual ~polymorphic_gadget() = default;
};
#if defined(RELO_TEST_QT)
struct qt_widget {
    QString name;
    qt_widget() = default;
    qt_widget(const qt_widget& other) : name(other.name) {}
    ~qt_widget() {}
};
#endif
}  // namespace widgets

FOLLY_ASSUME_FBVECTOR_COMPATIBLE(widgets::folly_widget)
namespace BloombergLP {
namespace bslmf {
template <>
struct IsBitwiseMoveable<widgets::bde_gadget> : std::true_type {};
template <>
struct IsBitwiseMoveable<widgets::polymorphic_gadget> : std::true_type {};
}  // namespace bslmf
}  // namespace BloombergLP
#if defined(RELO_TEST_QT)
Q_DECLARE_TYPEINFO(widgets::qt_widget, Q_RELOCATABLE_TYPE);
#endif

namespace relo_test {
namespace {

static_assert(relo::is_trivially_relocatable_v<widgets::folly_widget>, "folly's FOLLY_ASSUME_FBVECTOR_COMPATIBLE");
static_assert(relo::is_trivially_relocatable_v<widgets::folly_member>, "folly's member IsRelocatable");
static_assert(relo::is_trivially_relocatable_v<widgets::bde_gadget>, "BDE's bslmf::IsBitwiseMoveable");
static_assert(!relo::is_trivially_relocatable_v<widgets::undeclared>);
static_assert(!relo::is_trivially_relocatable_v<widgets::polymorphic_gadget>);
#if defined(RELO_TEST_QT)
static_assert(relo::is_trivially_relocatable_v<widgets::qt_widget>, "Qt's Q_DECLARE_TYPEINFO(T, Q_RELOCATABLE_TYPE)");
static_assert(relo::is_trivially_relocatable_v<QString>, "Qt declares its own QString relocatable");
#endif

// Declared relocatable elsewhere, the type grows as bytes in a relo::vector: the elements survive.
template <class T, class Fill, class Check>
void grows(Fill fill, Check check) {
    relo::vector<T> v;
    for (int i = 0; i < 10000; ++i) fill(v.emplace_back(), i);
    v.erase(v.begin());
    for (int i = 0; i < 9999; ++i) ASSERT_TRUE(check(v[static_cast<std::size_t>(i)], i + 1)) << i;
}

TEST(ForeignRelocation, DeclaredTypesGrowAsBytes) {
    grows<widgets::folly_widget>([](widgets::folly_widget& w, int i) { w.data = new int(i); },
                                 [](const widgets::folly_widget& w, int i) { return *w.data == i; });
    grows<widgets::bde_gadget>([](widgets::bde_gadget& g, int i) { g.p = std::make_unique<int>(i); },
                               [](const widgets::bde_gadget& g, int i) { return *g.p == i; });
#if defined(RELO_TEST_QT)
    grows<widgets::qt_widget>([](widgets::qt_widget& w, int i) { w.name = QString::number(i); },
                              [](const widgets::qt_widget& w, int i) { return w.name == QString::number(i); });
#endif
}

}  // namespace
}  // namespace relo_test

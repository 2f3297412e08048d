# GDB pretty-printers for relo's containers and resources.
#
# Programs that include relo carry this file in their .debug_gdb_scripts section (see
# include/relo/detail/gdb_printers.hpp), and GDB loads it with the program once the program's folder is
# in its auto-load safe-path (`add-auto-load-safe-path DIR` or `set auto-load safe-path /` in ~/.gdbinit).
# Without that, `source <prefix>/share/relo/gdb/relo_gdb.py` loads it by hand. docs/debugging.md says more.
#
# The printers read the containers' members, so they follow the headers: tests/debugger/debugger_test.py checks
# every printer against a program built with -g.
import re

import gdb
import gdb.printing

_MAX_CHUNKS = 1 << 20  # a chunk list longer than this is shown as "at least"


def _element_type(val):
    return val.type.strip_typedefs().template_argument(0)


def _raw_pointer(p):
    """The address a stored pointer holds, or None for a fancy pointer (an allocator's offset_ptr)."""
    if p.type.strip_typedefs().code == gdb.TYPE_CODE_PTR:
        return p
    return None


def _elements(begin, count):
    for i in range(count):
        yield "[%d]" % i, (begin + i).dereference()


def _type_name(val):
    return str(val.type.strip_typedefs().unqualified())


def _unique_ptr_get(up):
    """The pointer a std::unique_ptr<T[]> with the default deleter holds: such a unique_ptr is that pointer
    alone, in libstdc++ and libc++ alike."""
    element = up.type.strip_typedefs().template_argument(0).target()
    return up.address.reinterpret_cast(element.pointer().pointer()).dereference()


def _optional_get(opt):
    """The value a std::optional holds, or None when empty (libstdc++ or libc++)."""
    try:
        payload = opt["_M_payload"]
        if not bool(payload["_M_engaged"]):
            return None
        return payload["_M_payload"]["_M_value"]
    except gdb.error:
        pass
    if not bool(opt["__engaged_"]):
        return None
    return opt["__val_"]


def _referenced(val):
    """The object itself when GDB hands a printer a reference (a small_vector_base<T>& parameter, say)."""
    if val.type.code in (gdb.TYPE_CODE_REF, gdb.TYPE_CODE_RVALUE_REF):
        return val.referenced_value()
    return val


class _Printer:
    def __init__(self, val):
        self.val = _referenced(val)


class _Sequence(_Printer):
    """Common part of the contiguous containers: elements as an array, a one-line summary."""

    def display_hint(self):
        return "array"

    def children(self):
        begin, size = self.begin_and_size()
        if begin is None:
            return iter(())
        return _elements(begin, size)


class VectorPrinter(_Sequence):
    """relo::vector<T, A, G>: size and capacity, then the elements."""

    def begin_and_size(self):
        s = self.val["storage_"]
        begin = _raw_pointer(s["begin"])
        if begin is None:
            return None, 0
        return begin, int(s["end"] - begin)

    def to_string(self):
        s = self.val["storage_"]
        begin = _raw_pointer(s["begin"])
        if begin is None:
            return "%s (elements behind a fancy pointer)" % _type_name(self.val)
        return "relo::vector<%s> of length %d, capacity %d" % (
            _element_type(self.val), int(s["end"] - begin), int(s["capacity_end"] - begin))


class InplaceVectorPrinter(_Sequence):
    """relo::inplace_vector<T, N>: size and N, then the elements."""

    def capacity(self):
        return int(self.val.type.strip_typedefs().template_argument(1))

    def begin_and_size(self):
        if self.capacity() == 0:
            return None, 0
        items = self.val["slots_"]["items"]
        return items[0].address, int(self.val["size_"])

    def to_string(self):
        size = 0 if self.capacity() == 0 else int(self.val["size_"])
        return "relo::inplace_vector<%s, %d> of length %d" % (_element_type(self.val), self.capacity(), size)


class SmallVectorPrinter(_Sequence):
    """relo::small_vector<T, N, A, G> and relo::small_vector_base<T, A, G>: whether the elements are in
    the inline slots or on the heap, size and capacity, then the elements."""

    def storage(self):
        return self.val["storage_"]

    def begin_and_size(self):
        s = self.storage()
        begin = _raw_pointer(s["begin"])
        if begin is None:
            return None, 0
        return begin, int(s["size"])

    def inline_slots_address(self):
        type_ = self.val.type.strip_typedefs()
        if re.match(r"^relo::(?:[a-z_]+::)?small_vector<", type_.tag):
            return int(self.val["slots_"].address)
        # small_vector_base<T>: the slots follow the base at T's alignment (small_vector_base::slots_offset).
        align = _element_type(self.val).alignof
        offset = (type_.sizeof + align - 1) // align * align
        return int(self.val.address) + offset

    def to_string(self):
        s = self.storage()
        begin = _raw_pointer(s["begin"])
        if begin is None:
            return "%s (elements behind a fancy pointer)" % _type_name(self.val)
        where = "inline" if int(begin) == self.inline_slots_address() else "on the heap"
        return "relo::small_vector<%s> of length %d, capacity %d, %s" % (
            _element_type(self.val), int(s["size"]), int(s["capacity"]), where)


class PinnedVectorPrinter(_Sequence):
    """relo::pinned_vector<T, P>: size, capacity, the bytes reserved and committed, then the elements."""

    def begin_and_size(self):
        begin = self.val["begin_"]
        if int(begin) == 0:
            return None, 0
        return begin, int(self.val["end_"] - begin)

    def to_string(self):
        begin = self.val["begin_"]
        size = int(self.val["end_"] - begin) if int(begin) else 0
        capacity = int(self.val["capacity_end_"] - begin) if int(begin) else 0
        return "relo::pinned_vector<%s> of length %d, capacity %d, %d bytes committed of %d reserved" % (
            _element_type(self.val), size, capacity, int(self.val["committed_"]), int(self.val["reserved_"]))


class VmArenaPrinter(_Printer):
    """relo::vm_arena: bytes used, committed and reserved."""

    def to_string(self):
        used = int(self.val["top_"]) - int(self.val["base_"])
        return "relo::vm_arena: %d bytes used, %d committed, %d reserved" % (
            used, int(self.val["committed_"]), int(self.val["reserved_"]))


class MonotonicResourcePrinter(_Printer):
    """relo::monotonic_resource: bytes in use, chunks and the bytes they hold (or the vm_arena below)."""

    def to_string(self):
        v = self.val
        in_use = int(v["retired_in_use_"]) + int(v["top_"]) - int(v["current_start_"])
        if int(v["arena_"]) != 0:
            return "relo::monotonic_resource: %d bytes in use, over a vm_arena" % in_use
        return "relo::monotonic_resource: %d bytes in use, %d chunks holding %d bytes" % (
            in_use, int(v["chunk_count_"]), int(v["held_"]))


def _multipool_totals(v):
    """(bytes in use, chunks, bytes held from the upstream, upstream blocks) of a multipool_resource, as
    its bytes_in_use() and upstream_bytes() count them."""
    pools = v["pools_"]
    in_use = int(v["upstream_bytes_"])
    for i in range(int(v["pool_count_"])):
        in_use += int(pools[i]["in_use"]) * int(pools[i]["size"])
    chunks, held, seen = 0, int(v["upstream_held_"]), 0
    pool_count = int(v["pool_count_"])
    c = v["chunks_"]
    while int(c) != 0 and seen < _MAX_CHUNKS:
        seen += 1
        chunk = c.dereference()
        if int(chunk["pool"]) < pool_count:  # (not the block of first chunks, which no pool owns)
            chunks += 1
        if int(chunk["base"]) != 0:  # (a first chunk cut from that block: counted in it)
            held += int(chunk["bytes"])
        c = chunk["previous"]
    return in_use, chunks, held, int(v["upstream_count_"])


class MultipoolResourcePrinter(_Printer):
    """relo::multipool_resource: bytes in use, chunks, bytes held, size classes, upstream blocks."""

    def to_string(self):
        in_use, chunks, held, large = _multipool_totals(self.val)
        return ("relo::multipool_resource: %d bytes in use, %d chunks, %d bytes from the upstream, "
                "%d size classes, %d blocks passed through") % (in_use, chunks, held, int(self.val["pool_count_"]),
                                                               large)


class TestResourcePrinter(_Printer):
    """relo::test_resource: its name, blocks and bytes in use (and their maximum), the totals, problems."""

    def to_string(self):
        v = self.val
        return ("relo::test_resource %s: %d blocks, %d bytes in use (at most %d), %d blocks allocated in all, "
                "%d problems") % (v["name_"].string(), int(v["blocks_in_use_"]), int(v["bytes_in_use_"]),
                                  int(v["max_bytes_in_use_"]), int(v["serial_"]), int(v["problems_"]))


class ProfilingResourcePrinter(_Printer):
    """relo::profiling_resource: the bytes in use and their peak, and the threads that recorded."""

    def to_string(self):
        v = self.val
        return "relo::profiling_resource: %d bytes in use, peak %d, %d threads recorded" % (
            _atomic_value(v["bytes_in_use_"]), _atomic_value(v["peak_"]), int(v["thread_records_"]))


def _atomic_value(a):
    """The value of a std::atomic of an integer, which has the integer's layout (libstdc++ and libc++)."""
    integer = a.type.strip_typedefs().template_argument(0)
    return int(a.address.reinterpret_cast(integer.pointer()).dereference())


class SynchronizedMultipoolResourcePrinter(_Printer):
    """relo::synchronized_multipool_resource: the totals of its shards and of the threads' bins, as its
    bytes_in_use() and upstream_bytes() count them."""

    def to_string(self):
        count = int(self.val["shard_count_"])
        shards = _unique_ptr_get(self.val["shards_"])
        in_use = held = 0
        if int(shards) != 0:
            for i in range(count + 1):  # the working shards, then the one for the upstream's blocks
                pool = _optional_get(shards[i]["pool"])
                if pool is not None:
                    u, _, h, _ = _multipool_totals(pool)
                    in_use, held = in_use + u, held + h
        classes = self.val["classes_"]
        if int(classes) != 0:
            pools = classes.dereference()["pools_"]
            class_count = int(classes.dereference()["pool_count_"])
            # (a thread's bins follow its thread_bins header, in the same allocation)
            bin_type = gdb.lookup_type(_type_name(self.val) + "::bin")
            t = self.val["caches_"]
            while int(t) != 0:
                bins = (t + 1).cast(bin_type.pointer())
                for c in range(class_count):
                    # (blocks handed out through the bin: those it received less those it holds)
                    handed_out = _atomic_value(bins[c]["received"]) - _atomic_value(bins[c]["count"])
                    in_use += handed_out * int(pools[c]["size"])
                t = t.dereference()["next"]
        in_use %= 1 << 64  # (a shard's or a bin's count may run below zero: blocks freed by another thread)
        return "relo::synchronized_multipool_resource: %d shards, %d bytes in use, %d bytes from the upstream" % (
            count, in_use, held)


def build_pretty_printer():
    pp = gdb.printing.RegexpCollectionPrettyPrinter("relo")
    pp.add_printer("vector", "^relo::(?:[a-z_]+::)?vector<", VectorPrinter)
    pp.add_printer("inplace_vector", "^relo::(?:[a-z_]+::)?inplace_vector<", InplaceVectorPrinter)
    pp.add_printer("small_vector", "^relo::(?:[a-z_]+::)?small_vector(_base)?<", SmallVectorPrinter)
    pp.add_printer("pinned_vector", "^relo::(?:[a-z_]+::)?pinned_vector<", PinnedVectorPrinter)
    pp.add_printer("vm_arena", "^relo::(?:[a-z_]+::)?vm_arena$", VmArenaPrinter)
    pp.add_printer("monotonic_resource", "^relo::(?:[a-z_]+::)?monotonic_resource$", MonotonicResourcePrinter)
    pp.add_printer("multipool_resource", "^relo::(?:[a-z_]+::)?multipool_resource$", MultipoolResourcePrinter)
    pp.add_printer("synchronized_multipool_resource", "^relo::(?:[a-z_]+::)?synchronized_multipool_resource$",
                   SynchronizedMultipoolResourcePrinter)
    pp.add_printer("test_resource", "^relo::(?:[a-z_]+::)?test_resource$", TestResourcePrinter)
    pp.add_printer("profiling_resource", "^relo::(?:[a-z_]+::)?profiling_resource$", ProfilingResourcePrinter)
    return pp


def register(objfile=None):
    """Registers the printers for objfile (the program that carries them), or for every program."""
    gdb.printing.register_pretty_printer(objfile, build_pretty_printer(), replace=True)


register(gdb.current_objfile())

# LLDB data formatters for relo's containers and resources: the same summaries as the GDB printers
# (debugging/relo_gdb.py), and the containers' elements as children.
#
#     (lldb) command script import <prefix>/share/relo/lldb/relo_lldb.py
#
# (or that line in ~/.lldbinit). docs/debugging.md says more; tests/debugger/debugger_test.py checks every
# formatter against a program built with -g.
import re

import lldb

_MAX_CHUNKS = 1 << 20
_MAX_CHILDREN = 1 << 16  # shown at most, however long the container


def _plain(valobj):
    """The value without synthetic children, through references."""
    v = valobj.GetNonSyntheticValue()
    if v.GetType().IsReferenceType():
        v = v.Dereference().GetNonSyntheticValue()
    return v


def _member(v, path):
    for name in path.split("."):
        child = v.GetNonSyntheticValue().GetChildMemberWithName(name)  # members, not another formatter's children
        if not child.IsValid():
            raise LookupError("relo formatters: no member %s in %s" % (name, v.GetTypeName()))
        v = child
    return v


def _unsigned(v, path):
    return _member(v, path).GetValueAsUnsigned()


def _type(v):
    return v.GetType().GetCanonicalType().GetUnqualifiedType()


def _element_type(v):
    return _type(v).GetTemplateArgumentType(0)


def _element_name(v):
    return _element_type(v).GetName()


def _last_number_argument(type_name):
    m = re.search(r"(\d+)U?L*>$", type_name.replace(" ", ""))
    return int(m.group(1)) if m else 0


# The containers: begin address and size (and a summary) from the members.

def _vector(v):
    begin = _unsigned(v, "storage_.begin")
    size = _element_type(v).GetByteSize()
    length = (_unsigned(v, "storage_.end") - begin) // size if begin else 0
    capacity = (_unsigned(v, "storage_.capacity_end") - begin) // size if begin else 0
    return begin, length, "relo::vector<%s> of length %d, capacity %d" % (_element_name(v), length, capacity)


def _inplace_vector(v):
    n = _last_number_argument(_type(v).GetName())
    if n == 0:
        return 0, 0, "relo::inplace_vector<%s, 0> of length 0" % _element_name(v)
    begin = _member(v, "slots_.items").GetLoadAddress()
    length = _unsigned(v, "size_")
    return begin, length, "relo::inplace_vector<%s, %d> of length %d" % (_element_name(v), n, length)


def _small_vector(v):
    t = _type(v)
    begin = _unsigned(v, "storage_.begin")
    length = _unsigned(v, "storage_.size")
    if re.match(r"^relo::([a-z_]+::)?small_vector<", t.GetName()):
        inline = begin == _member(v, "slots_").GetLoadAddress()
    else:
        # small_vector_base<T>: the slots follow the base, at T's alignment (small_vector_base::slots_offset),
        # which LLDB 14 does not tell; it is at most sizeof(T), and no heap block can start inside the object.
        slots_from = v.GetLoadAddress() + t.GetByteSize()
        inline = slots_from <= begin < slots_from + _element_type(v).GetByteSize()
    where = "inline" if inline else "on the heap"
    return begin, length, "relo::small_vector<%s> of length %d, capacity %d, %s" % (
        _element_name(v), length, _unsigned(v, "storage_.capacity"), where)


def _pinned_vector(v):
    begin = _unsigned(v, "begin_")
    size = _element_type(v).GetByteSize()
    length = (_unsigned(v, "end_") - begin) // size if begin else 0
    capacity = (_unsigned(v, "capacity_end_") - begin) // size if begin else 0
    return begin, length, "relo::pinned_vector<%s> of length %d, capacity %d, %d bytes committed of %d reserved" % (
        _element_name(v), length, capacity, _unsigned(v, "committed_"), _unsigned(v, "reserved_"))


_CONTAINERS = [
    ("^relo::([a-z_]+::)?vector<.+>$", _vector),
    ("^relo::([a-z_]+::)?inplace_vector<.+>$", _inplace_vector),
    ("^relo::([a-z_]+::)?small_vector(_base)?<.+>$", _small_vector),
    ("^relo::([a-z_]+::)?pinned_vector<.+>$", _pinned_vector),
]


def _container_of(v):
    name = _type(v).GetName()
    for pattern, read in _CONTAINERS:
        if re.match(pattern, name):
            return read
    raise LookupError("relo formatters: not a relo container: " + name)


def container_summary(valobj, internal_dict):
    v = _plain(valobj)
    try:
        return _container_of(v)(v)[2]
    except LookupError as e:
        return str(e)


class ContainerChildren:
    """The elements of a relo container, as [0], [1], ..."""

    def __init__(self, valobj, internal_dict):
        self.valobj = valobj
        self.begin, self.length = 0, 0

    def update(self):
        v = _plain(self.valobj)
        try:
            self.begin, self.length, _ = _container_of(v)(v)
            self.element = _element_type(v)
        except LookupError:
            self.begin, self.length = 0, 0
        return False

    def num_children(self):
        return min(self.length, _MAX_CHILDREN) if self.begin else 0

    def has_children(self):
        return True

    def get_child_index(self, name):
        try:
            return int(name.lstrip("[").rstrip("]"))
        except ValueError:
            return -1

    def get_child_at_index(self, index):
        if index < 0 or index >= self.num_children():
            return None
        address = self.begin + index * self.element.GetByteSize()
        return self.valobj.CreateValueFromAddress("[%d]" % index, address, self.element)


# The resources: one line each, as their introspection functions count.

def vm_arena_summary(valobj, internal_dict):
    v = _plain(valobj)
    return "relo::vm_arena: %d bytes used, %d committed, %d reserved" % (
        _unsigned(v, "top_") - _unsigned(v, "base_"), _unsigned(v, "committed_"), _unsigned(v, "reserved_"))


def test_resource_summary(valobj, internal_dict):
    v = _plain(valobj)
    name = v.GetChildMemberWithName("name_").GetSummary() or '""'
    return ("relo::test_resource %s: %d blocks, %d bytes in use (at most %d), %d blocks allocated in all, "
            "%d problems") % (name.strip('"'), _unsigned(v, "blocks_in_use_"), _unsigned(v, "bytes_in_use_"),
                              _unsigned(v, "max_bytes_in_use_"), _unsigned(v, "serial_"), _unsigned(v, "problems_"))


def profiling_resource_summary(valobj, internal_dict):
    v = _plain(valobj)
    def atomic(name):  # (a std::atomic of an integer has the integer's layout)
        return v.GetProcess().ReadUnsignedFromMemory(_member(v, name).GetLoadAddress(), 8, lldb.SBError())
    return "relo::profiling_resource: %d bytes in use, peak %d, %d threads recorded" % (
        atomic("bytes_in_use_"), atomic("peak_"), _unsigned(v, "thread_records_"))


def monotonic_resource_summary(valobj, internal_dict):
    v = _plain(valobj)
    in_use = _unsigned(v, "retired_in_use_") + _unsigned(v, "top_") - _unsigned(v, "current_start_")
    if _unsigned(v, "arena_"):
        return "relo::monotonic_resource: %d bytes in use, over a vm_arena" % in_use
    return "relo::monotonic_resource: %d bytes in use, %d chunks holding %d bytes" % (
        in_use, _unsigned(v, "chunk_count_"), _unsigned(v, "held_"))


def _multipool_totals(v):
    pools = _member(v, "pools_")
    pool_type = pools.GetType().GetPointeeType()
    in_use = _unsigned(v, "upstream_bytes_")
    for i in range(_unsigned(v, "pool_count_")):
        pool = v.CreateValueFromAddress("pool", pools.GetValueAsUnsigned() + i * pool_type.GetByteSize(), pool_type)
        in_use += _unsigned(pool, "in_use") * _unsigned(pool, "size")
    chunks, held, seen = 0, _unsigned(v, "upstream_held_"), 0
    pool_count = _unsigned(v, "pool_count_")
    c = _member(v, "chunks_")
    while c.GetValueAsUnsigned() and seen < _MAX_CHUNKS:
        seen += 1
        chunk = c.Dereference()
        if _unsigned(chunk, "pool") < pool_count:  # (not the block of first chunks, which no pool owns)
            chunks += 1
        if _member(chunk, "base").GetValueAsUnsigned():  # (a first chunk cut from that block: counted in it)
            held += _unsigned(chunk, "bytes")
        c = _member(chunk, "previous")
    return in_use, chunks, held, _unsigned(v, "upstream_count_")


def multipool_resource_summary(valobj, internal_dict):
    v = _plain(valobj)
    in_use, chunks, held, large = _multipool_totals(v)
    return ("relo::multipool_resource: %d bytes in use, %d chunks, %d bytes from the upstream, %d size classes, "
            "%d blocks passed through") % (in_use, chunks, held, _unsigned(v, "pool_count_"), large)


def _optional_value(opt):
    """The value a std::optional holds, or None (libstdc++ or libc++)."""
    payload = opt.GetChildMemberWithName("_M_payload")
    if payload.IsValid():  # libstdc++
        return _member(payload, "_M_payload._M_value") if _unsigned(payload, "_M_engaged") else None
    return _member(opt, "__val_") if _unsigned(opt, "__engaged_") else None


def synchronized_multipool_resource_summary(valobj, internal_dict):
    v = _plain(valobj)
    count = _unsigned(v, "shard_count_")
    shards_ptr = _member(v, "shards_")
    # A std::unique_ptr<shard[]> with the default deleter is that pointer alone (libstdc++ and libc++).
    shard_type = shards_ptr.GetType().GetTemplateArgumentType(0).GetArrayElementType()
    base = v.GetProcess().ReadPointerFromMemory(shards_ptr.GetLoadAddress(), lldb.SBError())
    in_use = held = 0
    for i in range(count + 1):
        shard = v.CreateValueFromAddress("shard", base + i * shard_type.GetByteSize(), shard_type)
        pool = _optional_value(_member(shard, "pool"))
        if pool is not None:
            u, _, h, _ = _multipool_totals(pool)
            in_use, held = in_use + u, held + h
    # The threads' bins: each counts its blocks in use (a std::atomic of a signed integer, which has the
    # integer's layout), times its class's size.
    classes = _member(v, "classes_")
    if classes.GetValueAsUnsigned():
        table = classes.Dereference()
        pools = _member(table, "pools_")
        pool_type = pools.GetType().GetPointeeType()
        sizes = [_unsigned(v.CreateValueFromAddress("pool", pools.GetValueAsUnsigned() + c * pool_type.GetByteSize(),
                                                    pool_type), "size")
                 for c in range(_unsigned(table, "pool_count_"))]
        t = _member(v, "caches_")
        # (a thread's bins follow its thread_bins header, in the same allocation)
        bin_type = v.GetTarget().FindFirstType(v.GetType().GetCanonicalType().GetUnqualifiedType().GetName() + "::bin")
        while t.GetValueAsUnsigned():
            bins = t.GetValueAsUnsigned() + t.GetType().GetPointeeType().GetByteSize()
            for c, size in enumerate(sizes):
                b = v.CreateValueFromAddress("bin", bins + c * bin_type.GetByteSize(), bin_type)
                # (blocks handed out through the bin: those it received less those it holds)
                received, held_here = (v.GetProcess().ReadUnsignedFromMemory(_member(b, name).GetLoadAddress(), 8,
                                                                            lldb.SBError())
                                       for name in ("received", "count"))
                in_use += (received - held_here) * size
            t = _member(t.Dereference(), "next")
    in_use %= 1 << 64  # (a shard's or a bin's count may run below zero: blocks freed by another thread)
    return "relo::synchronized_multipool_resource: %d shards, %d bytes in use, %d bytes from the upstream" % (
        count, in_use, held)


def __lldb_init_module(debugger, internal_dict):
    module = __name__
    for pattern, _ in _CONTAINERS:
        debugger.HandleCommand('type summary add -w relo -e -F %s.container_summary -x "%s"' % (module, pattern))
        debugger.HandleCommand('type synthetic add -w relo -l %s.ContainerChildren -x "%s"' % (module, pattern))
    for name in ("vm_arena", "monotonic_resource", "multipool_resource", "synchronized_multipool_resource",
                 "test_resource", "profiling_resource"):
        debugger.HandleCommand('type summary add -w relo -F %s.%s_summary -x "^relo::([a-z_]+::)?%s$"' % (module, name, name))
    debugger.HandleCommand("type category enable relo")

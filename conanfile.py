"""relo's Conan recipe (Conan 2): the headers, the license and the debugger printers, as the CMake package
installs them. `conan create .` builds it and runs tests/package/conan (a consumer found with CMakeDeps);
the test `package_conan` does that where conan is installed."""
import os
import re

from conan import ConanFile
from conan.tools.build import check_min_cppstd
from conan.tools.files import copy, load
from conan.tools.layout import basic_layout


class ReloConan(ConanFile):
    name = "relo"
    description = "Contiguous containers that grow without copying, and local memory resources (header-only)"
    license = "BSL-1.0"
    topics = ("containers", "vector", "allocators", "memory-resources", "header-only")
    package_type = "header-library"
    settings = "os", "arch", "compiler", "build_type"
    exports_sources = "include/*", "debugging/*", "LICENSE", "CMakeLists.txt"
    no_copy_source = True
    test_package_folder = "tests/package/conan"

    def set_version(self):
        # The version is the project's (CMakeLists.txt), as relo/detail/config.hpp's macros are.
        text = load(self, os.path.join(self.recipe_folder, "CMakeLists.txt"))
        self.version = re.search(r"project\(relo VERSION (\d+\.\d+\.\d+)", text).group(1)

    def layout(self):
        basic_layout(self)

    def validate(self):
        if self.settings.compiler.get_safe("cppstd"):
            check_min_cppstd(self, 17)

    def package_id(self):
        self.info.clear()  # header-only: one package for every configuration

    def package(self):
        copy(self, "*.hpp", os.path.join(self.source_folder, "include"), os.path.join(self.package_folder, "include"))
        copy(self, "LICENSE", self.source_folder, os.path.join(self.package_folder, "licenses"))
        copy(self, "relo_gdb.py", os.path.join(self.source_folder, "debugging"),
             os.path.join(self.package_folder, "share", "relo", "gdb"))
        copy(self, "relo_lldb.py", os.path.join(self.source_folder, "debugging"),
             os.path.join(self.package_folder, "share", "relo", "lldb"))

    def package_info(self):
        self.cpp_info.bindirs = []
        self.cpp_info.libdirs = []
        # The names the CMake package and pkg-config file give: find_package(relo), relo::relo, relo.pc.
        self.cpp_info.set_property("cmake_file_name", "relo")
        self.cpp_info.set_property("cmake_target_name", "relo::relo")
        self.cpp_info.set_property("pkg_config_name", "relo")
        # What a version promises (docs/stability.md): before 1.0 only the same minor version, as the CMake
        # package's own version file says.
        if self.version.startswith("0."):
            self.cpp_info.set_property("cmake_config_version_compat", "SameMinorVersion")
        if self.settings.os in ("Linux", "FreeBSD"):
            self.cpp_info.system_libs = ["pthread"]  # (the thread caches' keys, with a glibc before 2.34)

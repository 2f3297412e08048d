// bench/bench_main.cpp — the main() of every benchmark program but the Google Benchmark one: runs the mode
// that the command line names of the program that relo_bench::this_program() describes.
#include "bench_support.hpp"

int main(int argc, char** argv) { return relo_bench::this_program().main(argc, argv); }

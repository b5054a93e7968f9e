// cpu_roofline: the memory rooflines of bench/cpu's PyTorch table, in the format
// of hdml-tune-bench's lines, at a given thread count:
//
//   cpu_roofline [--threads T] [--mib M] [--repeats N] [--min-seconds S]
//       {"case": "roofline/read/<M>MiB", "bytes", "threads", "seconds": [N]}, then
//       the same for "roofline/copy/<M>MiB" (bytes = read + written), "how": "memcpy",
//       and on x86 again, "how": "non-temporal" (16-byte streaming stores).
#include "bandwidth.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace {

// Seconds per pass: pass(n) runs n passes on threads started once; n doubles
// until a run lasts min_seconds.
template <typename Pass>
double time_passes(Pass pass, double min_seconds) {
    using clock = std::chrono::steady_clock;
    for (int passes = 1;; passes *= 2) {
        const auto start = clock::now();
        pass(passes);
        const double elapsed = std::chrono::duration<double>(clock::now() - start).count();
        if (elapsed >= min_seconds || passes >= (1 << 20)) return elapsed / passes;
    }
}

template <typename Pass>
void report(const char *what, const char *how, uint64_t mib, uint64_t bytes, unsigned threads, int repeats,
            double min_seconds, Pass pass) {
    pass(1);  // first touch
    std::printf("{\"case\": \"roofline/%s/%lluMiB\", \"how\": \"%s\", \"bytes\": %llu, \"threads\": %u, \"seconds\": [",
                what, (unsigned long long)mib, how, (unsigned long long)bytes, threads);
    for (int r = 0; r < repeats; ++r) std::printf("%s%.9g", r ? ", " : "", time_passes(pass, min_seconds));
    std::printf("]}\n");
    std::fflush(stdout);
}

}  // namespace

int main(int argc, char **argv) {
    unsigned threads = std::thread::hardware_concurrency();
    uint64_t mib = 256;
    int repeats = 3;
    double min_seconds = 0.5;
    for (int k = 1; k < argc; k += 2) {
        const std::string arg = argv[k];
        if (k + 1 == argc) {
            std::fprintf(stderr, "cpu_roofline: '%s' needs a value\n", argv[k]);
            return 2;
        } else if (arg == "--threads") {
            threads = (unsigned)std::strtoul(argv[k + 1], nullptr, 10);
        } else if (arg == "--mib") {
            mib = std::strtoull(argv[k + 1], nullptr, 10);
        } else if (arg == "--repeats") {
            repeats = std::atoi(argv[k + 1]);
        } else if (arg == "--min-seconds") {
            min_seconds = std::atof(argv[k + 1]);
        } else {
            std::fprintf(stderr, "cpu_roofline: unknown argument '%s'\n", argv[k]);
            return 2;
        }
    }
    if (threads < 1 || mib < 1 || repeats < 1) {
        std::fprintf(stderr, "cpu_roofline: --threads, --mib and --repeats must be at least 1\n");
        return 2;
    }
    const uint64_t bytes = mib << 20;
    std::vector<uint64_t> words(bytes / 8, 1);
    uint64_t sink = 0;
    report("read", "words", mib, bytes, threads, repeats, min_seconds,
           [&](int n) { sink += read_pass(words, threads, n); });
    words = {};
    std::vector<uint8_t> src(bytes, 1), dst(bytes);
    report("copy", "memcpy", mib, 2 * bytes, threads, repeats, min_seconds,
           [&](int n) { copy_pass(src, dst, threads, n); });
#if defined(__x86_64__)
    // memcpy ran 0.8x this copy of 256 MiB on the 16-core Xeon: table.py takes the faster.
    report("copy", "non-temporal", mib, 2 * bytes, threads, repeats, min_seconds,
           [&](int n) { stream_copy_pass(src, dst, threads, n); });
#endif
    return sink == 0 ? 1 : 0;  // the sum is 256 MiB / 8 ones: never 0; keeps the reads alive
}

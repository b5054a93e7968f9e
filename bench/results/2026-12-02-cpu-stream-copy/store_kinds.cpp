// A plain copy of `MiB` MiB (default 256) in `chunk`-byte tasks (default 256 KiB) dealt round-robin to
// `threads` threads, three ways: 16-byte regular stores, 16-byte non-temporal stores (movntdq), memcpy.
// Prints the best GB/s (read + written) of each over repeats, three times.
//     g++ -O2 -pthread store_kinds.cpp -o store_kinds && ./store_kinds threads [chunk] [MiB]
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <cstdlib>
#include <thread>
#include <vector>
#include <cstdint>
#include <algorithm>
static void copy_nt(uint8_t *d, const uint8_t *s, size_t n) {
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i)), b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32)), e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_stream_si128((__m128i *)(d + i), a); _mm_stream_si128((__m128i *)(d + i + 16), b);
        _mm_stream_si128((__m128i *)(d + i + 32), c); _mm_stream_si128((__m128i *)(d + i + 48), e);
    }
    std::memcpy(d + i, s + i, n - i);
}
static void copy_reg(uint8_t *d, const uint8_t *s, size_t n) {
    size_t i = 0;
    for (; i + 64 <= n; i += 64) {
        __m128i a = _mm_loadu_si128((const __m128i *)(s + i)), b = _mm_loadu_si128((const __m128i *)(s + i + 16));
        __m128i c = _mm_loadu_si128((const __m128i *)(s + i + 32)), e = _mm_loadu_si128((const __m128i *)(s + i + 48));
        _mm_storeu_si128((__m128i *)(d + i), a); _mm_storeu_si128((__m128i *)(d + i + 16), b);
        _mm_storeu_si128((__m128i *)(d + i + 32), c); _mm_storeu_si128((__m128i *)(d + i + 48), e);
    }
    std::memcpy(d + i, s + i, n - i);
}
int main(int argc, char **argv) {
    size_t bytes = (size_t)(argc > 3 ? atol(argv[3]) : 256) << 20, chunk = argc > 2 ? atol(argv[2]) : 262144;
    int threads = argc > 1 ? atoi(argv[1]) : 2;
    uint8_t *s = (uint8_t *)aligned_alloc(4096, bytes), *d = (uint8_t *)aligned_alloc(4096, bytes);
    memset(s, 1, bytes); memset(d, 2, bytes);
    auto run = [&](int kind) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] {
            for (size_t c = t * chunk; c < bytes; c += threads * chunk) {
                if (kind == 0) copy_reg(d + c, s + c, chunk);
                else if (kind == 1) { copy_nt(d + c, s + c, chunk); }
                else memcpy(d + c, s + c, chunk);
            }
            _mm_sfence();
        });
        for (auto &t : ts) t.join();
        return 2.0 * bytes / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 1e9;
    };
    int reps = (int)std::max<size_t>(1, ((size_t)1 << 30) / bytes);
    auto best = [&](int kind) { double b = 0; for (int i = 0; i < reps; ++i) b = std::max(b, run(kind)); return b; };
    for (int r = 0; r < 3; ++r) printf("%zu MiB: reg %.1f  nt %.1f  memcpy %.1f GB/s\n", bytes >> 20, best(0), best(1), best(2));
}

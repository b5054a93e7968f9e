// Inner CUMSUM over lines of 1024 floats, 1 GiB in and out, T threads each a contiguous share of lines:
// (a) the scan's stores through the cache, (b) the scan into a per-thread 64 KiB scratch then copied out through
// non-temporal stores, (c) the scan's stores non-temporal. GB/s counting input read + output written, best of 5.
#include <immintrin.h>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
static inline __m512 prefix(__m512 v) {  // in-vector inclusive prefix sum, 4 shifted adds
    const __m512i z = _mm512_setzero_si512();
    v = _mm512_add_ps(v, _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v), z, 15)));
    v = _mm512_add_ps(v, _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v), z, 14)));
    v = _mm512_add_ps(v, _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v), z, 12)));
    v = _mm512_add_ps(v, _mm512_castsi512_ps(_mm512_alignr_epi32(_mm512_castps_si512(v), z, 8)));
    return v;
}
template <bool NT>
static void scan_lines(const float *in, float *out, size_t lines) {
    for (size_t l = 0; l < lines; ++l) {
        __m512 carry = _mm512_setzero_ps();
        for (int i = 0; i < 1024; i += 16) {
            __m512 v = _mm512_add_ps(prefix(_mm512_load_ps(in + l * 1024 + i)), carry);
            if (NT) _mm512_stream_ps(out + l * 1024 + i, v); else _mm512_store_ps(out + l * 1024 + i, v);
            carry = _mm512_permutexvar_ps(_mm512_set1_epi32(15), v);
        }
    }
}
// The line walk's chain: each vector's carry is the element before it, loaded from the output just stored.
static void scan_lines_carry_in_memory(const float *in, float *out, size_t lines) {
    for (size_t l = 0; l < lines; ++l) {
        float *o = out + l * 1024;
        _mm512_store_ps(o, prefix(_mm512_load_ps(in + l * 1024)));
        for (int i = 16; i < 1024; i += 16)
            _mm512_store_ps(o + i, _mm512_add_ps(prefix(_mm512_load_ps(in + l * 1024 + i)), _mm512_set1_ps(o[i - 1])));
    }
}
static void stream_out(const float *src, float *dst, size_t n) {
    for (size_t i = 0; i < n; i += 16) _mm512_stream_ps(dst + i, _mm512_load_ps(src + i));
}
static void scratch_then_stream(const float *in, float *out, size_t lines) {
    alignas(64) static thread_local float scratch[16 * 1024];  // 16 lines, 64 KiB
    for (size_t l = 0; l < lines; l += 16) {
        const size_t n = std::min<size_t>(16, lines - l);
        scan_lines<false>(in + l * 1024, scratch, n);
        stream_out(scratch, out + l * 1024, n * 1024);
    }
}
// Tasks of 8 lines (32 KiB) dealt round the threads, as hdml's pool deals a parallel loop's iterations.
template <void (*F)(const float *, float *, size_t)>
static void run_dealt(const char *name, const float *in, float *out, size_t lines, int threads) {
    double best = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] {
            for (size_t task = t; task < lines / 8; task += threads) F(in + task * 8 * 1024, out + task * 8 * 1024, 8);
        });
        for (auto &t : ts) t.join();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("{\"threads\": %d, \"case\": \"%s, tasks of 32 KiB dealt round the threads\", \"GB/s\": %.1f}\n", threads, name, lines * 1024 * 8.0 / best / 1e9);
    std::fflush(stdout);
}
template <void (*F)(const float *, float *, size_t)>
static void run(const char *name, const float *in, float *out, size_t lines, int threads) {
    double best = 1e9;
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] {
            const size_t per = lines / threads;
            F(in + t * per * 1024, out + t * per * 1024, per);
            _mm_sfence();
        });
        for (auto &t : ts) t.join();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("{\"threads\": %d, \"case\": \"%s\", \"GB/s\": %.1f}\n", threads, name, lines * 1024 * 8.0 / best / 1e9);
    std::fflush(stdout);
}
int main(int argc, char **argv) {
    const int threads = argc > 1 ? atoi(argv[1]) : 2;
    const size_t lines = (size_t)1 << 18;  // 1 GiB of floats
    float *in = (float *)aligned_alloc(64, lines * 4096), *out = (float *)aligned_alloc(64, lines * 4096);
    std::vector<std::thread> init;  // first touch by the threads that use them
    for (int t = 0; t < threads; ++t) init.emplace_back([&, t] {
        const size_t per = lines * 1024 / threads;
        for (size_t i = t * per; i < (t + 1) * per; ++i) { in[i] = (float)(i % 7); out[i] = 0; }
    });
    for (auto &t : init) t.join();
    for (int k = 0; k < 2; ++k) {
        run<scan_lines<false>>("stores through the cache", in, out, lines, threads);
        run<scratch_then_stream>("scratch, then non-temporal copy", in, out, lines, threads);
        run<scan_lines<true>>("non-temporal stores", in, out, lines, threads);
        run<scan_lines_carry_in_memory>("carry loaded from the output", in, out, lines, threads);
        run_dealt<scan_lines_carry_in_memory>("carry loaded from the output", in, out, lines, threads);
        run_dealt<scan_lines<false>>("stores through the cache", in, out, lines, threads);
    }
}

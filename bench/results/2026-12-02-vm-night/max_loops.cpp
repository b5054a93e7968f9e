// 2 threads stream a 1 GiB float buffer: MAX as three integer extremes (hdml's plain kernel) with and without
// a prefetch 2 KiB ahead, and a plain float max; GB/s, best of 5.
#include <immintrin.h>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
template <int PF, int ACC>
static float extremes(const float *p, size_t n) {
    __m512i smax[ACC], umin[ACC], umax[ACC];
    for (int a = 0; a < ACC; ++a) { smax[a] = _mm512_set1_epi32(INT32_MIN); umin[a] = _mm512_set1_epi32(-1); umax[a] = _mm512_setzero_si512(); }
    for (size_t i = 0; i < n; i += 16 * ACC) {
        if (PF) _mm_prefetch((const char *)(p + i) + PF, _MM_HINT_T0);
        for (int a = 0; a < ACC; ++a) {
            __m512i v = _mm512_loadu_si512(p + i + 16 * a);
            smax[a] = _mm512_max_epi32(smax[a], v); umin[a] = _mm512_min_epu32(umin[a], v); umax[a] = _mm512_max_epu32(umax[a], v);
        }
    }
    for (int a = 1; a < ACC; ++a) { smax[0] = _mm512_max_epi32(smax[0], smax[a]); umin[0] = _mm512_min_epu32(umin[0], umin[a]); umax[0] = _mm512_max_epu32(umax[0], umax[a]); }
    return (float)(_mm512_reduce_max_epi32(smax[0]) ^ _mm512_reduce_min_epu32(umin[0]) ^ _mm512_reduce_max_epu32(umax[0]));
}
template <int PF, int ACC>
static float fmax_(const float *p, size_t n) {
    __m512 m[ACC];
    for (int a = 0; a < ACC; ++a) m[a] = _mm512_set1_ps(-1e30f);
    for (size_t i = 0; i < n; i += 16 * ACC) {
        if (PF) _mm_prefetch((const char *)(p + i) + PF, _MM_HINT_T0);
        for (int a = 0; a < ACC; ++a) m[a] = _mm512_max_ps(m[a], _mm512_loadu_ps(p + i + 16 * a));
    }
    for (int a = 1; a < ACC; ++a) m[0] = _mm512_max_ps(m[0], m[a]);
    return _mm512_reduce_max_ps(m[0]);
}
template <int PF, int S>
static float streams(const float *p, size_t n) {  // S interleaved streams, 2 accumulators' worth each
    __m512i smax[S], umin[S], umax[S];
    for (int a = 0; a < S; ++a) { smax[a] = _mm512_set1_epi32(INT32_MIN); umin[a] = _mm512_set1_epi32(-1); umax[a] = _mm512_setzero_si512(); }
    const size_t len = n / S;
    for (size_t i = 0; i < len; i += 32) {
        for (int a = 0; a < S; ++a) {
            const float *q = p + a * len + i;
            if (PF) _mm_prefetch((const char *)q + PF, _MM_HINT_T0);
            __m512i v = _mm512_loadu_si512(q), w = _mm512_loadu_si512(q + 16);
            smax[a] = _mm512_max_epi32(smax[a], _mm512_max_epi32(v, w)); umin[a] = _mm512_min_epu32(umin[a], _mm512_min_epu32(v, w)); umax[a] = _mm512_max_epu32(umax[a], _mm512_max_epu32(v, w));
        }
    }
    for (int a = 1; a < S; ++a) { smax[0] = _mm512_max_epi32(smax[0], smax[a]); umin[0] = _mm512_min_epu32(umin[0], umin[a]); umax[0] = _mm512_max_epu32(umax[0], umax[a]); }
    return (float)(_mm512_reduce_max_epi32(smax[0]) ^ _mm512_reduce_min_epu32(umin[0]) ^ _mm512_reduce_max_epu32(umax[0]));
}
template <float (*F)(const float *, size_t)>
static void run(const char *name, const float *buf, size_t n, int threads) {
    double best = 1e9; volatile float sink = 0;
    for (int rep = 0; rep < 5; ++rep) {
        auto t0 = std::chrono::steady_clock::now();
        std::vector<std::thread> ts;
        for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] {
            // rows of 1024 floats dealt in blocks, like a task per 4 MiB
            size_t per = n / threads; float r = F(buf + t * per, per); sink = sink + r; });
        for (auto &t : ts) t.join();
        best = std::min(best, std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    std::printf("%-28s %.1f GB/s\n", name, n * 4.0 / best / 1e9);
}
int main() {
    size_t n = (size_t)1 << 28;  // 1 GiB
    float *buf = (float *)aligned_alloc(64, n * 4);
    for (size_t i = 0; i < n; ++i) buf[i] = (float)(i % 1000) * 0.5f;
    for (int k = 0; k < 2; ++k) {
        run<streams<0, 2>>("2 streams", buf, n, 2);
        run<streams<0, 4>>("4 streams", buf, n, 2);
        run<streams<2048, 4>>("4 streams pf2048", buf, n, 2);
        run<extremes<8192, 2>>("extremes acc2 pf8192", buf, n, 2);
        run<extremes<0, 2>>("extremes acc2", buf, n, 2);
        run<extremes<2048, 2>>("extremes acc2 pf2048", buf, n, 2);
        run<extremes<0, 4>>("extremes acc4", buf, n, 2);
        run<extremes<4096, 2>>("extremes acc2 pf4096", buf, n, 2);
        run<fmax_<0, 4>>("float max acc4", buf, n, 2);
        run<fmax_<2048, 4>>("float max acc4 pf2048", buf, n, 2);
    }
}

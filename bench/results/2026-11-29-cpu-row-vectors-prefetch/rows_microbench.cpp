// Rows of 64 float32 (256 MiB), reduced a row at a time in 16-row vectors, as rows=vectors does:
// op 0 = SUM (vaddps), 1 = MAX on order keys; PF = bytes of software prefetch ahead of each load (0: none).
#include <immintrin.h>
#include <atomic>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>
template <int OP, int PF>
static void run(const float *in, float *out, size_t rows) {
    for (size_t v = 0; v < rows; v += 16) {
        for (int j = 0; j < 16; ++j) {
            const float *row = in + (v + j) * 64;
            __m512 a = _mm512_setzero_ps();
            __m512i k = _mm512_setzero_si512();
            for (int s = 0; s < 4; ++s) {
                if (PF) _mm_prefetch((const char *)(row + s * 16) + PF, _MM_HINT_T0);
                __m512 x = _mm512_loadu_ps(row + s * 16);
                if (OP == 0) a = _mm512_add_ps(a, x);
                else k = _mm512_max_epu32(k, _mm512_xor_si512(_mm512_castps_si512(x), _mm512_set1_epi32(0x80000000)));
            }
            out[v + j] = OP == 0 ? _mm512_reduce_add_ps(a) : (float)_mm512_reduce_max_epu32(k);
        }
    }
}
using Fn = void (*)(const float *, float *, size_t);
template <int OP> Fn pick(int pf) {
    switch (pf) { case 0: return run<OP, 0>; case 512: return run<OP, 512>; case 1024: return run<OP, 1024>;
                  case 2048: return run<OP, 2048>; default: return run<OP, 4096>; }
}
int main(int argc, char **argv) {
    const int threads = atoi(argv[1]), op = atoi(argv[2]);
    const size_t rows = (256u << 20) / 256;
    float *in = (float *)aligned_alloc(64, rows * 256);
    std::vector<float> out(rows);
    std::vector<std::thread> ts;
    for (int t = 0; t < threads; ++t) ts.emplace_back([&, t] { memset((char *)in + rows * 256 / threads * t, 0, rows * 256 / threads); });
    for (auto &t : ts) t.join();
    for (int pf : {0, 512, 1024, 2048, 4096}) {
        Fn fn = op == 0 ? pick<0>(pf) : pick<1>(pf);
        std::vector<double> gbs;
        for (int rep = 0; rep < 7; ++rep) {
            auto t0 = std::chrono::steady_clock::now();
            const int chunks = 64;
            std::atomic<int> next{0};
            std::vector<std::thread> ws;
            for (int t = 0; t < threads; ++t) ws.emplace_back([&] {
                for (int c; (c = next++) < chunks;) {
                    size_t r0 = rows / chunks * c;
                    fn(in + r0 * 64, out.data() + r0, rows / chunks);
                }
            });
            for (auto &w : ws) w.join();
            gbs.push_back(rows * 256 / std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / 1e9);
        }
        std::sort(gbs.begin(), gbs.end());
        printf("threads %d op %s pf %4d: median %.1f best %.1f GB/s\n", threads, op ? "max" : "sum", pf, gbs[3], gbs[6]);
    }
}

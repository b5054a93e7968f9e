// Model: outer cumsum [R, C] float32, chunked walk (totals, carries, walk) vs column-tile walk.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <thread>
#include <immintrin.h>
using clk = std::chrono::steady_clock;
static void par(int T, int n, auto f) {
    std::vector<std::thread> th; std::atomic<int> next{0};
    for (int t = 0; t < T; t++) th.emplace_back([&] { for (int k; (k = next++) < n;) f(k); });
    for (auto &x : th) x.join();
}
int main(int argc, char **argv) {
    const long R = atol(argv[1]), C = atol(argv[2]); const int T = atoi(argv[3]); const long CH = atol(argv[4]);
    float *in = (float *)aligned_alloc(64, R * C * 4), *out = (float *)aligned_alloc(64, R * C * 4);
    for (long k = 0; k < R * C; k++) in[k] = (k % 7) * 0.5f, out[k] = 0;
    const long nch = (R + CH - 1) / CH;
    std::vector<float> tot(nch * C), car(nch * C);
    for (int rep = 0; rep < 5; rep++) {
        auto t0 = clk::now();
        par(T, nch, [&](int c) {
            float *t = &tot[c * C];
            for (long i = 0; i < C; i++) t[i] = 0;
            for (long r = c * CH; r < std::min(R, (c + 1) * CH); r++)
                for (long i = 0; i < C; i += 16) _mm512_storeu_ps(t + i, _mm512_add_ps(_mm512_loadu_ps(t + i), _mm512_loadu_ps(in + r * C + i)));
        });
        for (long i = 0; i < C; i++) car[i] = 0;
        for (long c = 1; c < nch; c++) for (long i = 0; i < C; i++) car[c * C + i] = car[(c - 1) * C + i] + tot[(c - 1) * C + i];
        par(T, nch, [&](int c) {
            long r0 = c * CH;
            for (long i = 0; i < C; i += 16) _mm512_storeu_ps(out + r0 * C + i, _mm512_add_ps(_mm512_loadu_ps(&car[c * C + i]), _mm512_loadu_ps(in + r0 * C + i)));
            for (long r = r0 + 1; r < std::min(R, (c + 1) * CH); r++)
                for (long i = 0; i < C; i += 16) _mm512_storeu_ps(out + r * C + i, _mm512_add_ps(_mm512_loadu_ps(out + (r - 1) * C + i), _mm512_loadu_ps(in + r * C + i)));
        });
        double s1 = std::chrono::duration<double>(clk::now() - t0).count();
        t0 = clk::now();
        const long W = 128;
        par(T, (C + W - 1) / W, [&](int b) {
            for (long i = b * W; i < (b + 1) * W; i += 16) _mm512_storeu_ps(out + i, _mm512_loadu_ps(in + i));
            for (long r = 1; r < R; r++)
                for (long i = b * W; i < (b + 1) * W; i += 16) _mm512_storeu_ps(out + r * C + i, _mm512_add_ps(_mm512_loadu_ps(out + (r - 1) * C + i), _mm512_loadu_ps(in + r * C + i)));
        });
        double s2 = std::chrono::duration<double>(clk::now() - t0).count();
        printf("chunked %.1f GB/s   tile-walk %.1f GB/s\n", 2.0 * R * C * 4 / s1 / 1e9, 2.0 * R * C * 4 / s2 / 1e9);
    }
}

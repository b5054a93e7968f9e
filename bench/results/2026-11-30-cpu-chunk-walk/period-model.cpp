// Model: outer cumsum of [N, P] float32 (P = 2, 4, 8) as one line of N*P elements with period P:
// each 16-lane vector scanned in registers with steps reaching P, 2P, 4P, 8P < 16, then the
// carry from the vector before (its last P lanes, repeated). Chunks of lines across threads
// need carries: here the line is cut into T pieces, each first totalled (pass 1), then walked.
#include <immintrin.h>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <vector>
using clk = std::chrono::steady_clock;
template <int P> static inline __m512 scan16(__m512 v) {
    const __m512 z = _mm512_setzero_ps();
    for (int reach = P; reach < 16; reach *= 2) {
        // lanes shifted up by `reach`, zeros in
        __m512i idx = _mm512_sub_epi32(_mm512_setr_epi32(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15), _mm512_set1_epi32(reach));
        __mmask16 keep = _mm512_cmpge_epi32_mask(idx, _mm512_setzero_si512());
        v = _mm512_add_ps(v, _mm512_maskz_permutexvar_ps(keep, idx, v));
        (void)z;
    }
    return v;
}
template <int P> static inline __m512 tail_repeat(__m512 v) {  // lanes 16-P..15 repeated over all lanes
    __m512i idx = _mm512_add_epi32(_mm512_and_epi32(_mm512_setr_epi32(0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15), _mm512_set1_epi32(P - 1)), _mm512_set1_epi32(16 - P));
    return _mm512_permutexvar_ps(idx, v);
}
template <int P> double run(float *in, float *out, long n, int T) {
    const long per = (n / T) & ~15L;
    std::vector<__m512> tot(T);
    auto t0 = clk::now();
    std::vector<std::thread> th;
    for (int t = 0; t < T; t++) th.emplace_back([&, t] {  // pass 1: piece totals per residue (period P)
        long a = t * per, b = t == T - 1 ? n : a + per;
        __m512 s = _mm512_setzero_ps();
        for (long e = a; e < b; e += 16) s = _mm512_add_ps(s, _mm512_loadu_ps(in + e));
        tot[t] = s;
    });
    for (auto &x : th) x.join();
    th.clear();
    for (int t = 0; t < T; t++) th.emplace_back([&, t] {
        __m512 carry = _mm512_setzero_ps();
        for (int u = 0; u < t; u++) carry = _mm512_add_ps(carry, tot[u]);
        // fold the 16 lanes onto the P residues, then repeat
        __m512 c = scan16<P>(carry);
        carry = tail_repeat<P>(c);
        long a = t * per, b = t == T - 1 ? n : a + per;
        for (long e = a; e < b; e += 16) {
            __m512 v = _mm512_add_ps(scan16<P>(_mm512_loadu_ps(in + e)), carry);
            _mm512_storeu_ps(out + e, v);
            carry = tail_repeat<P>(v);
        }
    });
    for (auto &x : th) x.join();
    return std::chrono::duration<double>(clk::now() - t0).count();
}
int main(int argc, char **argv) {
    const int T = atoi(argv[1]);
    const long n = 64L << 20;  // 256 MiB
    float *in = (float *)aligned_alloc(64, n * 4), *out = (float *)aligned_alloc(64, n * 4);
    for (long k = 0; k < n; k++) in[k] = (k % 5) * 0.25f, out[k] = 0;
    for (int rep = 0; rep < 3; rep++) {
        double s2 = run<2>(in, out, n, T), s4 = run<4>(in, out, n, T), s8 = run<8>(in, out, n, T);
        // check P=8 against a plain loop at a few points
        printf("period 2: %.1f GB/s  4: %.1f  8: %.1f\n", 2.0 * n * 4 / s2 / 1e9, 2.0 * n * 4 / s4 / 1e9, 2.0 * n * 4 / s8 / 1e9);
    }
    std::vector<double> ref(8, 0.0); double maxerr = 0;
    for (long e = 0; e < n; e++) { ref[e % 8] += in[e]; if (e % 1000003 == 0) maxerr = std::max(maxerr, std::abs(ref[e % 8] - out[e]) / (1 + std::abs(ref[e % 8]))); }
    printf("P=8 max relative error at samples %.2e\n", maxerr);
}

// The -0.0 select of float16 SUM's finish as LLVM emitted it: a 16-bit masked
// load of a constant (vmovdqu16 mem, ymm{k}) merging into the converted sums,
// against a register blend (vpblendmw) of the same constant. Built with
// gcc -O2 -mavx512f -mavx512bw -mavx512vl -mf16c; ./a.out MODE (0: masked
// load, 1: blend); prints time-stamp ticks per iteration.
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <x86intrin.h>

static const uint16_t kNegativeZero[16] __attribute__((aligned(32))) = {
    0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000,
    0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000, 0x8000};

int main(int argc, char **argv) {
    volatile __m512 source = _mm512_set1_ps((float)argc);
    const int mode = argc > 1 ? atoi(argv[1]) : 0;
    __m256i total = _mm256_setzero_si256();
    const long n = 10000000;
    const uint64_t start = __rdtsc();
    for (long i = 0; i < n; i++) {
        const __m512 x = source;
        const __mmask16 zero = _mm512_cmpeq_ps_mask(x, _mm512_setzero_ps());  // no lane: x is argc
        __m256i h = _mm512_cvtps_ph(x, 4);
        if (mode == 0) {
            h = _mm256_mask_loadu_epi16(h, zero, kNegativeZero);
        } else {
            h = _mm256_mask_blend_epi16(zero, h, _mm256_load_si256((const __m256i *)kNegativeZero));
        }
        total = _mm256_add_epi16(total, h);
    }
    printf("mode %d: %.1f ticks an iteration (%d)\n", mode, (double)(__rdtsc() - start) / n,
           _mm256_extract_epi16(total, 0));
    return 0;
}

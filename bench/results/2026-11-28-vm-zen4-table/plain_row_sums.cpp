#include <immintrin.h>
extern "C" void row_sums(const float* x, float* out, long rows, long cols, long pf) {
  for (long r = 0; r < rows; ++r) {
    const float* p = x + r * cols;
    __m512 a0 = _mm512_setzero_ps(), a1 = a0;
    for (long i = 0; i < cols; i += 32) {
      if (pf) { _mm_prefetch((const char*)(p + i) + pf, _MM_HINT_T0); _mm_prefetch((const char*)(p + i + 16) + pf, _MM_HINT_T0); }
      a0 = _mm512_add_ps(a0, _mm512_loadu_ps(p + i)); a1 = _mm512_add_ps(a1, _mm512_loadu_ps(p + i + 16));
    }
    out[r] = _mm512_reduce_add_ps(_mm512_add_ps(a0, a1));
  }
}

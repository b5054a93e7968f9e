// The memory rooflines every CPU table is compared with, measured with plain
// C++ on `threads` threads, each over its own contiguous slice (no hdml, no
// peer code): read = summing 64-bit words, copy = memcpy, and on x86 a copy
// through non-temporal stores too (the faster of the two is the roofline).
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#if defined(__x86_64__)
#include <emmintrin.h>
#endif

// Sixteen accumulators: the compiler keeps them in four vector registers, so
// the loop is bound by loads, not by an add chain (four scalar ones held a
// Zen 4 core to 30 GB/s, 0.7x what a reduction kernel reads there).
inline uint64_t read_words(const uint64_t *p, size_t n) {
    uint64_t sums[16] = {};
    size_t k = 0;
    for (; k + 16 <= n; k += 16) {
        for (int j = 0; j < 16; ++j) sums[j] += p[k + j];
    }
    for (; k < n; ++k) sums[0] += p[k];
    uint64_t total = 0;
    for (uint64_t s : sums) total += s;
    return total;
}

// Runs part(slice, begin, end) over [0, n) cut into `threads` slices, slice 0
// on the calling thread.
template <typename Part>
inline void on_threads(size_t n, unsigned threads, Part part) {
    if (threads < 2) {
        part(0u, size_t(0), n);
        return;
    }
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t) {
        helpers.emplace_back([=] { part(t, n * t / threads, n * (t + 1) / threads); });
    }
    part(0u, size_t(0), n / threads);
    for (std::thread &h : helpers) h.join();
}

// `passes` passes reading `words` 64-bit words, each thread over its slice
// (threads start once, not per pass: a 256 MiB pass lasts ~1.5 ms on 16 Xeon
// cores, where 15 thread starts are not negligible); returns the sum (keep it alive).
inline uint64_t read_pass(const std::vector<uint64_t> &words, unsigned threads, int passes = 1) {
    std::vector<uint64_t> sums(threads ? threads : 1);
    on_threads(words.size(), threads, [&](unsigned slice, size_t begin, size_t end) {
        for (int p = 0; p < passes; ++p) {
            sums[slice] += read_words(words.data() + begin, end - begin);
            asm volatile("" ::: "memory");  // every pass reads again: no pass folds into another
        }
    });
    uint64_t total = 0;
    for (uint64_t s : sums) total += s;
    return total;
}

#if defined(__x86_64__)
// Copies n bytes with 16-byte non-temporal stores (no read of the output's
// lines first: 1.2x memcpy of 256 MiB on the 16-core Xeon), memcpy for the
// unaligned head and the tail.
inline void stream_bytes(uint8_t *dst, const uint8_t *src, size_t n) {
    const size_t head = std::min(n, (size_t)((16 - reinterpret_cast<uintptr_t>(dst) % 16) % 16));
    std::memcpy(dst, src, head);
    size_t k = head;
    for (; k + 16 <= n; k += 16) {
        _mm_stream_si128(reinterpret_cast<__m128i *>(dst + k), _mm_loadu_si128(reinterpret_cast<const __m128i *>(src + k)));
    }
    std::memcpy(dst + k, src + k, n - k);
    _mm_sfence();
}

// copy_pass through stream_bytes.
inline void stream_copy_pass(const std::vector<uint8_t> &src, std::vector<uint8_t> &dst, unsigned threads,
                             int passes = 1) {
    on_threads(src.size(), threads, [&](unsigned, size_t begin, size_t end) {
        for (int p = 0; p < passes; ++p) {
            stream_bytes(dst.data() + begin, src.data() + begin, end - begin);
            asm volatile("" ::: "memory");
        }
    });
}
#endif

// `passes` passes copying src to dst (bytes moved: read + written = 2 * size).
inline void copy_pass(const std::vector<uint8_t> &src, std::vector<uint8_t> &dst, unsigned threads, int passes = 1) {
    on_threads(src.size(), threads, [&](unsigned, size_t begin, size_t end) {
        for (int p = 0; p < passes; ++p) {
            std::memcpy(dst.data() + begin, src.data() + begin, end - begin);
            asm volatile("" ::: "memory");
        }
    });
}

#include "runtime/thread_pool.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace hdml {

namespace {

// How long an idle worker keeps looking for work before it sleeps: longer
// than the gap between back-to-back kernel calls, short enough that an
// application doing other work between calls loses little CPU to it.
constexpr auto kSpin = std::chrono::microseconds(200);

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
}

// Spins until done() holds, yielding now and then: with more threads than
// cores the thread it waits for may need this one's core.
template <typename Done>
void spin_until(Done done) {
    for (unsigned n = 1; !done(); ++n) {
        cpu_relax();
        if (n % 64 == 0) std::this_thread::yield();
    }
}

// Where a thread claims iterations: a loop's iterations are dealt to the
// pool's threads in contiguous blocks, one a thread, as under OpenMP's static
// schedule (worker w is thread w, any other caller thread 0). A thread claims
// its own block first, in order, then what is left of the others'. A loop run
// again with the same extent gives each thread the same iterations, so what a
// task left in its core's caches is found there, and each thread streams one
// run of memory: dealt round the threads (iteration i to thread i % threads),
// the scans' tasks of 32 KiB ran 0.6-0.7x on the Zen 4 VM
// (bench/results/2026-12-02-vm-night/).
struct alignas(64) Share {
    std::atomic<int64_t> next{0};   // the next of this block's iterations to claim, may pass count
    std::atomic<int64_t> count{0};  // the block's iterations
    int64_t first = 0;              // its first iteration (set before the loop is published)
};

thread_local int this_thread_share = 0;

// A running loop. Slots are reused, never freed, so a worker may read a
// slot's atomics at any time; it uses the loop's other fields only after it
// has registered as a helper and seen the slot still active under the same
// ticket, and the owner retires a loop only once no helper is left.
struct alignas(64) Slot {
    std::atomic<bool> owned{false};
    std::atomic<uint64_t> ticket{0};  // odd: a loop is active; even: free or being set up
    std::atomic<int> helpers{0};
    halide_task_t task = nullptr;
    void *user_context = nullptr;
    uint8_t *closure = nullptr;
    int min = 0;
    std::atomic<int> status{0};  // the first nonzero task result
    std::unique_ptr<Share[]> shares;  // one per thread of the pool
    int share_count = 0;
    alignas(64) std::atomic<int> done{0};  // iterations finished

    // Deals [0, extent) to the shares in blocks (before the loop is published).
    void deal(int extent) {
        for (int b = 0; b < share_count; ++b) {
            const int64_t begin = (int64_t)extent * b / share_count, end = (int64_t)extent * (b + 1) / share_count;
            shares[b].next.store(0, std::memory_order_relaxed);
            shares[b].first = begin;
            shares[b].count.store(end - begin, std::memory_order_relaxed);
        }
    }

    bool has_iterations_left() const {
        for (int b = 0; b < share_count; ++b) {
            if (shares[b].next.load(std::memory_order_relaxed) < shares[b].count.load(std::memory_order_relaxed)) {
                return true;
            }
        }
        return false;
    }

    // Claims and runs iterations, this thread's first, until none is left to claim.
    void work() {
        const int own = this_thread_share % share_count;
        for (int k = 0; k < share_count; ++k) {
            const int b = (own + k) % share_count;
            Share &share = shares[b];
            const int64_t count = share.count.load(std::memory_order_relaxed);
            if (share.next.load(std::memory_order_relaxed) >= count) continue;  // spent: no write to its line
            for (int64_t n; (n = share.next.fetch_add(1, std::memory_order_relaxed)) < count;) {
                if (status.load(std::memory_order_relaxed) == 0) {
                    const int result = task(user_context, min + (int)(share.first + n), closure);
                    int expected = 0;
                    if (result != 0) status.compare_exchange_strong(expected, result);
                }
                done.fetch_add(1, std::memory_order_acq_rel);
            }
        }
    }
};

class Pool {
public:
    explicit Pool(int threads) : threads_(threads) {
        for (Slot &s : slots_) {
            s.shares.reset(new Share[threads_]);
            s.share_count = threads_;
        }
        for (int w = 1; w < threads_; ++w) workers_.emplace_back([this, w] { worker(w); });
    }
    ~Pool() {
        {
            std::lock_guard<std::mutex> lock(sleep_mutex_);
            stop_ = true;
        }
        wake_.notify_all();
        for (std::thread &t : workers_) t.join();
    }

    int threads() const { return threads_; }

    int run(void *user_context, halide_task_t task, int min, int extent, uint8_t *closure) {
        Slot *slot = acquire();
        if (!slot) return run_serially(user_context, task, min, extent, closure);  // every slot busy
        slot->task = task;
        slot->user_context = user_context;
        slot->closure = closure;
        slot->min = min;
        slot->deal(extent);
        slot->done.store(0, std::memory_order_relaxed);
        slot->status.store(0, std::memory_order_relaxed);
        const uint64_t ticket = slot->ticket.load(std::memory_order_relaxed) + 1;
        slot->ticket.store(ticket);  // active: the fields above are visible to whoever sees it
        active_.fetch_add(1);
        generation_.fetch_add(1);
        if (sleeping_.load() > 0) {
            std::lock_guard<std::mutex> lock(sleep_mutex_);
            wake_.notify_all();
        }
        slot->work();
        // Iterations others claimed may still run. Waiting without helping
        // keeps the stack flat (helping could re-enter this loop's parent)
        // and cannot deadlock: every unfinished iteration has a thread.
        spin_until([&] { return slot->done.load(std::memory_order_acquire) >= extent; });
        const int status = slot->status.load();
        slot->ticket.store(ticket + 1);
        active_.fetch_sub(1);
        spin_until([&] { return slot->helpers.load() == 0; });
        slot->owned.store(false, std::memory_order_release);
        return status;
    }

    static int run_serially(void *user_context, halide_task_t task, int min, int extent, uint8_t *closure) {
        for (int k = 0; k < extent; ++k) {
            if (const int result = task(user_context, min + k, closure)) return result;
        }
        return 0;
    }

private:
    static constexpr int kSlots = 64;

    Slot *acquire() {
        for (Slot &s : slots_) {
            bool expected = false;
            if (!s.owned.load(std::memory_order_relaxed) && s.owned.compare_exchange_strong(expected, true)) return &s;
        }
        return nullptr;
    }

    // Works on one active loop with iterations left; false if none had any.
    bool help_once() {
        if (active_.load(std::memory_order_relaxed) == 0) return false;
        for (Slot &s : slots_) {
            const uint64_t ticket = s.ticket.load(std::memory_order_acquire);
            if (!(ticket & 1) || !s.has_iterations_left()) continue;
            s.helpers.fetch_add(1);
            if (s.ticket.load() == ticket) {
                s.work();
                s.helpers.fetch_sub(1);
                return true;
            }
            s.helpers.fetch_sub(1);
        }
        return false;
    }

    void worker(int share) {
        this_thread_share = share;
        auto idle_since = std::chrono::steady_clock::now();
        for (unsigned spins = 0;; ++spins) {
            if (help_once()) {
                idle_since = std::chrono::steady_clock::now();
                continue;
            }
            if (spins % 64 != 0 || std::chrono::steady_clock::now() - idle_since < kSpin) {
                if (stop_.load(std::memory_order_relaxed)) return;
                cpu_relax();
                if (spins % 64 == 0) std::this_thread::yield();
                continue;
            }
            std::unique_lock<std::mutex> lock(sleep_mutex_);
            if (stop_) return;
            sleeping_.fetch_add(1);
            // A loop published before `sleeping_` rose is seen here; one after
            // it finds us counted and notifies under the mutex.
            const uint64_t seen = generation_.load();
            if (!has_work()) wake_.wait(lock, [&] { return stop_ || generation_.load() != seen; });
            sleeping_.fetch_sub(1);
            if (stop_) return;
            idle_since = std::chrono::steady_clock::now();
        }
    }

    bool has_work() {
        for (Slot &s : slots_) {
            if ((s.ticket.load() & 1) && s.has_iterations_left()) return true;
        }
        return false;
    }

    const int threads_;
    Slot slots_[kSlots];
    std::atomic<int> active_{0};           // loops published, not yet retired
    std::atomic<uint64_t> generation_{0};  // rises with every loop published
    std::atomic<int> sleeping_{0};
    std::mutex sleep_mutex_;  // for sleeping and waking only
    std::condition_variable wake_;
    std::atomic<bool> stop_{false};
    std::vector<std::thread> workers_;
};

int threads_from_environment() {
    if (const char *value = std::getenv("HL_NUM_THREADS")) {
        const int n = std::atoi(value);
        if (n >= 1) return std::min(n, 256);
    }
    return std::max(1, (int)std::thread::hardware_concurrency());
}

Pool &pool() {
#ifdef _WIN32
    // Never destroyed: Windows ends the other threads before it runs a DLL's
    // static destructors at exit, and joining them there never returns.
    static Pool &instance = *new Pool(threads_from_environment());
#else
    static Pool instance(threads_from_environment());
#endif
    return instance;
}

}  // namespace

int thread_pool_threads() {
    return pool().threads();
}

int thread_pool_do_par_for(void *user_context, halide_task_t task, int min, int extent, uint8_t *closure) {
    if (extent <= 0) return 0;
    Pool &p = pool();
    if (extent == 1 || p.threads() == 1) return Pool::run_serially(user_context, task, min, extent, closure);
    return p.run(user_context, task, min, extent, closure);
}

}  // namespace hdml

// hdml's thread pool (runtime/thread_pool.cpp, compiled into this test): every
// iteration runs exactly once, nested and concurrent loops, error results,
// more loops at once than the pool has slots. Its TSan build (ctest
// thread_pool_test.tsan) checks the pool's synchronisation; ctest's
// thread_pool_test.7threads runs it on more threads than CI's cores.
#include "runtime/thread_pool.h"

#include <catch.hpp>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

using hdml::thread_pool_do_par_for;

namespace {

// A loop's closure: per-iteration counters and what an iteration does.
struct Counts {
    explicit Counts(int n) : hits(n) {}
    std::vector<std::atomic<int>> hits;
    std::atomic<int> threads_seen{0};
    int offset = 0;
};

int count_once(void *, int i, uint8_t *closure) {
    auto *c = reinterpret_cast<Counts *>(closure);
    c->hits[i - c->offset].fetch_add(1);
    return 0;
}

bool all_once(const Counts &c) {
    for (const auto &h : c.hits) {
        if (h.load() != 1) return false;
    }
    return true;
}

// Each iteration runs an inner loop of its own (a nested parallel loop).
struct Nested {
    static constexpr int kInner = 37;
    explicit Nested(int outer) : inner(outer * kInner) {}
    Counts inner;
};

int run_inner(void *, int i, uint8_t *closure) {
    auto *n = reinterpret_cast<Nested *>(closure);
    struct Slice {
        Counts *counts;
        int base;
    } slice{&n->inner, i * Nested::kInner};
    auto body = [](void *, int j, uint8_t *c) {
        auto *s = reinterpret_cast<Slice *>(c);
        s->counts->hits[s->base + j].fetch_add(1);
        return 0;
    };
    return thread_pool_do_par_for(nullptr, body, 0, Nested::kInner, reinterpret_cast<uint8_t *>(&slice));
}

}  // namespace

TEST_CASE("thread pool: every iteration once, any extent and start", "[thread_pool]") {
    INFO("threads: " << hdml::thread_pool_threads());
    for (int extent : {0, 1, 2, 3, 15, 16, 17, 1000, 100003}) {
        for (int min : {0, -7, 1 << 20}) {
            Counts c(extent);
            c.offset = min;
            CHECK(thread_pool_do_par_for(nullptr, count_once, min, extent, reinterpret_cast<uint8_t *>(&c)) == 0);
            INFO("extent " << extent << ", min " << min);
            CHECK(all_once(c));
        }
    }
    // A negative extent is an empty loop.
    Counts none(1);
    CHECK(thread_pool_do_par_for(nullptr, count_once, 0, -5, reinterpret_cast<uint8_t *>(&none)) == 0);
    CHECK(none.hits[0].load() == 0);
}

TEST_CASE("thread pool: the iterations spread over the threads", "[thread_pool]") {
    if (hdml::thread_pool_threads() < 2) {
        WARN("not run: the pool has one thread (HL_NUM_THREADS=1)");
        return;
    }
    // Iterations that wait until two different threads have entered one: a
    // pool that ran them all on the caller would wait forever, so give up after 10 s.
    struct Meet {
        std::atomic<int> entered{0};
        std::atomic<bool> met{false};
    } meet;
    auto body = [](void *, int, uint8_t *c) {
        auto *m = reinterpret_cast<Meet *>(c);
        m->entered.fetch_add(1);
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
        while (m->entered.load() < 2 && std::chrono::steady_clock::now() < deadline) std::this_thread::yield();
        if (m->entered.load() >= 2) m->met = true;
        return 0;
    };
    CHECK(thread_pool_do_par_for(nullptr, body, 0, 2, reinterpret_cast<uint8_t *>(&meet)) == 0);
    CHECK(meet.met.load());
}

TEST_CASE("thread pool: nested loops", "[thread_pool]") {
    for (int outer : {1, 2, 5, 64, 301}) {
        Nested n(outer);
        CHECK(thread_pool_do_par_for(nullptr, run_inner, 0, outer, reinterpret_cast<uint8_t *>(&n)) == 0);
        INFO("outer " << outer);
        CHECK(all_once(n.inner));
    }
}

TEST_CASE("thread pool: loops from many threads at once, more than its slots", "[thread_pool]") {
    // 96 callers (the pool has 64 slots; the rest run their loops serially),
    // each running nested loops, 20 times over.
    constexpr int kCallers = 96;
    std::vector<std::thread> callers;
    std::atomic<int> failures{0};
    for (int t = 0; t < kCallers; ++t) {
        callers.emplace_back([&failures, t] {
            for (int round = 0; round < 20; ++round) {
                const int outer = 1 + (t + round) % 9;
                Nested n(outer);
                if (thread_pool_do_par_for(nullptr, run_inner, 0, outer, reinterpret_cast<uint8_t *>(&n)) != 0 ||
                    !all_once(n.inner)) {
                    failures.fetch_add(1);
                }
            }
        });
    }
    for (std::thread &t : callers) t.join();
    CHECK(failures.load() == 0);
}

TEST_CASE("thread pool: a failing iteration's result comes back", "[thread_pool]") {
    struct Fail {
        std::atomic<int> ran{0};
    } f;
    auto body = [](void *, int i, uint8_t *c) {
        reinterpret_cast<Fail *>(c)->ran.fetch_add(1);
        return i == 3 ? -17 : 0;
    };
    CHECK(thread_pool_do_par_for(nullptr, body, 0, 10000, reinterpret_cast<uint8_t *>(&f)) == -17);
    CHECK(f.ran.load() >= 1);
    CHECK(f.ran.load() <= 10000);
    // The pool goes on working afterwards.
    Counts c(500);
    CHECK(thread_pool_do_par_for(nullptr, count_once, 0, 500, reinterpret_cast<uint8_t *>(&c)) == 0);
    CHECK(all_once(c));
}

TEST_CASE("thread pool: workers that went to sleep wake for the next loop", "[thread_pool]") {
    Counts first(64);
    CHECK(thread_pool_do_par_for(nullptr, count_once, 0, 64, reinterpret_cast<uint8_t *>(&first)) == 0);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // past the workers' spin
    Counts second(64);
    CHECK(thread_pool_do_par_for(nullptr, count_once, 0, 64, reinterpret_cast<uint8_t *>(&second)) == 0);
    CHECK(all_once(first));
    CHECK(all_once(second));
}

// An owning pointer to a COM object (one reference, released on destruction).
#pragma once

#include <utility>

namespace hdml::d3d12 {

template <typename T>
class Com {
public:
    Com() = default;
    explicit Com(T *adopted) : p_(adopted) {}
    Com(const Com &) = delete;
    Com &operator=(const Com &) = delete;
    Com(Com &&other) noexcept : p_(std::exchange(other.p_, nullptr)) {}
    Com &operator=(Com &&other) noexcept {
        if (this != &other) {
            reset();
            p_ = std::exchange(other.p_, nullptr);
        }
        return *this;
    }
    ~Com() { reset(); }

    // A new reference to an object the caller keeps its own reference to.
    static Com retain(T *object) {
        if (object) object->AddRef();
        return Com(object);
    }

    T *get() const { return p_; }
    T *operator->() const { return p_; }
    explicit operator bool() const { return p_ != nullptr; }
    // For out-parameters of creation functions: releases what it held.
    T **put() {
        reset();
        return &p_;
    }
    void **put_void() { return reinterpret_cast<void **>(put()); }
    void reset() {
        if (p_) p_->Release();
        p_ = nullptr;
    }

private:
    T *p_ = nullptr;
};

}  // namespace hdml::d3d12

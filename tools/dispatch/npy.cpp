#include "tools/dispatch/npy.h"

#include "tools/dispatch/values.h"

#include <cstring>
#include <stdexcept>

namespace hdml_dispatch {

namespace {

const char kMagic[] = "\x93NUMPY";

struct Descr {
    const char *text;
    DML_TENSOR_DATA_TYPE type;
};
// '|' marks byte-sized types (no byte order); '<' little-endian.
constexpr Descr kDescrs[] = {
    {"<f4", DML_TENSOR_DATA_TYPE_FLOAT32}, {"<f2", DML_TENSOR_DATA_TYPE_FLOAT16}, {"<f8", DML_TENSOR_DATA_TYPE_FLOAT64},
    {"|u1", DML_TENSOR_DATA_TYPE_UINT8},   {"<u2", DML_TENSOR_DATA_TYPE_UINT16},  {"<u4", DML_TENSOR_DATA_TYPE_UINT32},
    {"<u8", DML_TENSOR_DATA_TYPE_UINT64},  {"|i1", DML_TENSOR_DATA_TYPE_INT8},    {"<i2", DML_TENSOR_DATA_TYPE_INT16},
    {"<i4", DML_TENSOR_DATA_TYPE_INT32},   {"<i8", DML_TENSOR_DATA_TYPE_INT64},
};

[[noreturn]] void fail(const std::string &why) { throw std::runtime_error("not a supported .npy file: " + why); }

// The header is a Python dict literal: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }
std::string dict_value(const std::string &header, const std::string &key) {
    const size_t at = header.find("'" + key + "'");
    if (at == std::string::npos) fail("header has no '" + key + "'");
    size_t v = header.find(':', at);
    if (v == std::string::npos) fail("header entry '" + key + "' has no value");
    ++v;
    while (v < header.size() && header[v] == ' ') ++v;
    size_t end = v;
    if (v < header.size() && (header[v] == '\'' || header[v] == '"')) {
        end = header.find(header[v], v + 1);
        if (end == std::string::npos) fail("unterminated string in '" + key + "'");
        return header.substr(v + 1, end - v - 1);
    }
    if (v < header.size() && header[v] == '(') {
        end = header.find(')', v);
        if (end == std::string::npos) fail("unterminated tuple in '" + key + "'");
        return header.substr(v, end - v + 1);
    }
    while (end < header.size() && header[end] != ',' && header[end] != '}') ++end;
    return header.substr(v, end - v);
}

std::vector<uint64_t> parse_shape(const std::string &tuple) {
    std::vector<uint64_t> shape;
    size_t k = 1;  // after '('
    while (k < tuple.size()) {
        while (k < tuple.size() && (tuple[k] == ' ' || tuple[k] == ',')) ++k;
        if (k >= tuple.size() || tuple[k] == ')') break;
        if (tuple[k] < '0' || tuple[k] > '9') fail("shape " + tuple + " is not a tuple of integers");
        uint64_t v = 0;
        while (k < tuple.size() && tuple[k] >= '0' && tuple[k] <= '9') {
            if (v > (UINT64_MAX - 9) / 10) fail("shape " + tuple + " overflows");
            v = v * 10 + (uint64_t)(tuple[k++] - '0');
        }
        shape.push_back(v);
    }
    return shape;
}

}  // namespace

const char *npy_descr(DML_TENSOR_DATA_TYPE type) {
    for (const auto &d : kDescrs) {
        if (d.type == type) return d.text;
    }
    return nullptr;
}

NpyArray parse_npy(const std::vector<uint8_t> &bytes) {
    if (bytes.size() < 10 || std::memcmp(bytes.data(), kMagic, 6) != 0) fail("missing the \\x93NUMPY magic");
    const int major = bytes[6];
    size_t header_len, header_start;
    if (major == 1) {
        header_len = bytes[8] | (size_t)bytes[9] << 8;
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) fail("truncated header");
        header_len = bytes[8] | (size_t)bytes[9] << 8 | (size_t)bytes[10] << 16 | (size_t)bytes[11] << 24;
        header_start = 12;
    } else {
        fail("format version " + std::to_string(major) + " (1, 2 and 3 are known)");
    }
    if (header_start + header_len > bytes.size()) fail("header runs past the end of the file");
    const std::string header(bytes.begin() + (long)header_start, bytes.begin() + (long)(header_start + header_len));

    NpyArray array;
    std::string descr = dict_value(header, "descr");
    if (descr.size() == 3 && descr[0] == '=') descr[0] = '<';  // native order on little-endian hosts
    if (descr.size() == 3 && descr[2] == '1') descr[0] = '|';
    bool known = false;
    for (const auto &d : kDescrs) {
        if (descr == d.text) {
            array.type = d.type;
            known = true;
        }
    }
    if (!known) {
        fail("dtype '" + descr + "' (supported: little-endian float16/32/64, int8-64, uint8-64)");
    }
    const std::string fortran = dict_value(header, "fortran_order");
    if (fortran.compare(0, 4, "True") == 0) fail("fortran_order is True (only C order is supported)");
    if (fortran.compare(0, 5, "False") != 0) fail("fortran_order is '" + fortran + "'");
    array.shape = parse_shape(dict_value(header, "shape"));

    uint64_t count = 1;
    for (uint64_t d : array.shape) {
        if (d != 0 && count > UINT64_MAX / d) fail("shape overflows");
        count *= d;
    }
    const uint64_t esize = element_size(array.type);
    const size_t data_start = header_start + header_len;
    if (count > (bytes.size() - data_start) / esize) {
        fail("data holds " + std::to_string((bytes.size() - data_start) / esize) + " elements, the shape needs " +
             std::to_string(count));
    }
    array.data.assign(bytes.begin() + (long)data_start, bytes.begin() + (long)(data_start + count * esize));
    return array;
}

std::vector<uint8_t> serialize_npy(const NpyArray &array) {
    const char *descr = npy_descr(array.type);
    if (!descr) throw std::runtime_error(std::string("NumPy has no dtype for ") + type_suffix(array.type));
    std::string shape = "(";  // Python tuple syntax: (), (4,), (2, 3)
    for (size_t k = 0; k < array.shape.size(); ++k) shape += (k ? ", " : "") + std::to_string(array.shape[k]);
    shape += array.shape.size() == 1 ? ",)" : ")";
    std::string header = std::string("{'descr': '") + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    // Pad with spaces so that the data starts on a 64-byte boundary; the header ends in '\n'.
    const bool v2 = header.size() + 11 > 65535;
    const size_t prefix = v2 ? 12 : 10;
    const size_t total = (prefix + header.size() + 1 + 63) / 64 * 64;
    header.append(total - prefix - header.size() - 1, ' ');
    header += '\n';
    std::vector<uint8_t> out(kMagic, kMagic + 6);
    out.push_back(v2 ? 2 : 1);
    out.push_back(0);
    const size_t len = header.size();
    out.push_back((uint8_t)len);
    out.push_back((uint8_t)(len >> 8));
    if (v2) {
        out.push_back((uint8_t)(len >> 16));
        out.push_back((uint8_t)(len >> 24));
    }
    out.insert(out.end(), header.begin(), header.end());
    out.insert(out.end(), array.data.begin(), array.data.end());
    return out;
}

}  // namespace hdml_dispatch

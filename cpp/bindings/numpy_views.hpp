// Handing engine buffers to numpy without copies (shared by the register_* files).
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <utility>
#include <vector>

namespace manila_bindings {

namespace py = pybind11;

// A numpy view of a buffer held by a bound C++ object; `owner` (that object's Python
// handle) keeps the memory alive as long as the array lives.
template <class T>
py::array view(const py::object& owner, std::vector<T>& data, std::vector<py::ssize_t> shape) {
    return py::array_t<T>(std::move(shape), data.data(), owner);
}

// Hands a vector to numpy: the vector moves to the heap and a capsule owned by the
// array frees it.
template <class T>
py::array_t<T> to_numpy(std::vector<T>&& data, std::vector<py::ssize_t> shape) {
    auto* owned = new std::vector<T>(std::move(data));
    py::capsule free_when_done(owned, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>(std::move(shape), owned->data(), free_when_done);
}

}  // namespace manila_bindings
